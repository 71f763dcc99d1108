package io.rpcx.cli;

import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code rpcx}, the RPCX command line: lists, describes and calls the services of a server that
 * publishes its reflection service ({@code RpcxServer.builder().reflection(true)}), prints their
 * {@code .proto} files, and load-tests a method.
 *
 * <pre>
 * rpcx list localhost:9000
 * rpcx describe localhost:9000 orders/findOrder
 * rpcx call localhost:9000 orders/findOrder '[42]'
 * rpcx bench localhost:9000 echo/echo '["hi"]' -c 32 -z 10s --html report.html
 * </pre>
 *
 * <p>A user's mistake (an address, JSON, an unknown method, refused credentials) is reported in one
 * line on stderr, never with a stack trace, and each outcome has its exit code ({@code rpcx
 * --help}). Not meant to be used as a library: run it with {@code java -jar rpcx.jar}.
 */
@Command(
    name = "rpcx",
    mixinStandardHelpOptions = true,
    versionProvider = RpcxCli.Version.class,
    description = "Lists, describes, calls and load-tests the services of an RPCX server.%n"
        + "The server must publish its reflection service: RpcxServer.builder().reflection(true),"
        + " or rpcx.server.reflection=true with the Spring Boot starter.",
    subcommands = {
      ListCommand.class,
      DescribeCommand.class,
      ProtoCommand.class,
      CallCommand.class,
      BenchCommand.class,
      AutoComplete.GenerateCompletion.class
    })
public final class RpcxCli implements Runnable {
  @Spec CommandSpec spec;

  private InputStream stdin = System.in;

  RpcxCli() {}

  /** Runs the command line {@code args} and exits with its exit code. */
  public static void main(String[] args) {
    Charset charset = Charset.defaultCharset();
    PrintWriter out = new PrintWriter(System.out, true, charset);
    PrintWriter err = new PrintWriter(System.err, true, charset);
    System.exit(run(System.in, out, err, args));
  }

  /** Runs {@code args} with these streams; returns the exit code. */
  static int run(InputStream stdin, PrintWriter out, PrintWriter err, String... args) {
    RpcxCli root = new RpcxCli();
    root.stdin = stdin;
    CommandLine commandLine = new CommandLine(root);
    commandLine.setExpandAtFiles(false); // -d @file.json is ours to read
    commandLine.setOut(out);
    commandLine.setErr(err);
    Map<String, String> exitCodes = new LinkedHashMap<>();
    for (String line : ExitCodes.table().split("\\R")) {
      String trimmed = line.strip();
      int space = trimmed.indexOf(' ');
      exitCodes.put(trimmed.substring(0, space), trimmed.substring(space).strip());
    }
    commandLine.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n");
    commandLine.getCommandSpec().usageMessage().exitCodeList(exitCodes);
    for (CommandLine sub : commandLine.getSubcommands().values()) {
      sub.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n");
      sub.getCommandSpec().usageMessage().exitCodeList(exitCodes);
    }
    commandLine.setParameterExceptionHandler(
        (e, arguments) -> {
          CommandLine failed = e.getCommandLine();
          failed.getErr().println(
              firstLine(e.getMessage()) + " (see '" + failed.getCommandSpec().qualifiedName()
                  + " --help')");
          return ExitCodes.USAGE;
        });
    commandLine.setExecutionExceptionHandler(
        (e, failed, parseResult) -> {
          if (e instanceof UserError) {
            failed.getErr().println(e.getMessage());
            return ((UserError) e).exitCode();
          }
          failed.getErr().println("rpcx failed unexpectedly (a bug; please report it):");
          e.printStackTrace(failed.getErr());
          return ExitCodes.SOFTWARE;
        });
    int code = commandLine.execute(args);
    out.flush();
    err.flush();
    return code;
  }

  private static String firstLine(String message) {
    String text = message == null ? "" : message.strip();
    int end = text.indexOf('\n');
    return end < 0 ? text : text.substring(0, end).strip();
  }

  /** Standard input, for arguments given as {@code -}. */
  InputStream stdin() {
    return stdin;
  }

  /** Without a command: the usage. */
  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing command: one of "
        + String.join(", ", spec.subcommands().keySet()));
  }

  /** The version of the rpcx jar (its manifest), or "development" when run from classes. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = RpcxCli.class.getPackage().getImplementationVersion();
      return new String[] {"rpcx " + (version == null ? "development" : version)};
    }
  }
}
