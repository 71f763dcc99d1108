package io.rpcx.cli;

import io.rpcx.client.RawCall;
import io.rpcx.core.reflection.MethodDescription;
import io.rpcx.core.reflection.ServiceDescription;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code rpcx bench HOST:PORT SERVICE/METHOD '[json]' -c 32 -n 100000}: a load test. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
      "Load-tests a method: -c calls in flight at once, until -n calls were made or for -z.",
      "Prints the count, calls per second, latency percentiles (HdrHistogram) and a histogram of"
          + " the successful calls, and the failures by status; --html writes a report with charts.",
      "Exits 0 when every call succeeded; otherwise with the code of the status most failed calls"
          + " had (the summary is printed all the same). Ctrl-C ends the run: it prints the summary"
          + " of the calls answered until then and exits 130."
    })
final class BenchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @ParentCommand RpcxCli root;

  @Parameters(index = "0", paramLabel = "HOST:PORT", description = "The server.")
  String address;

  @Parameters(index = "1", paramLabel = "SERVICE/METHOD", description = "The method to call.")
  String method;

  @Parameters(
      index = "2",
      arity = "0..1",
      paramLabel = "JSON",
      description = "The arguments of every call, a JSON array; '-' reads stdin. Default: [].")
  String arguments;

  @Option(
      names = {"-d", "--data"},
      paramLabel = "JSON|@FILE|@-",
      description = "The arguments: JSON, @file.json, or @- for stdin.")
  String data;

  @Option(
      names = {"-c", "--concurrency"},
      paramLabel = "N",
      defaultValue = "16",
      description = "Calls in flight at once (default: ${DEFAULT-VALUE}).")
  int concurrency;

  @Option(
      names = {"-n", "--total"},
      paramLabel = "N",
      description = "Calls to make (default: 1000, unless -z is given).")
  Long total;

  @Option(
      names = {"-z", "--duration"},
      paramLabel = "DURATION",
      converter = Durations.class,
      description = "How long to run, such as 30s or 2m, instead of -n.")
  Duration duration;

  @Option(names = "--html", paramLabel = "FILE", description = "Writes an HTML report with charts.")
  Path html;

  @Option(names = "--json", description = "Prints the summary as JSON.")
  boolean json;

  @Mixin ConnectionOptions connection;

  @Override
  public Integer call() {
    if (concurrency < 1 || concurrency > 10_000) {
      throw UserError.usage("-c: " + concurrency + " (expected: 1 to 10000)");
    }
    if (total != null && duration != null) {
      throw UserError.usage("give either -n or -z, not both");
    }
    if (total != null && total < 1) {
      throw UserError.usage("-n: " + total + " (expected: at least 1)");
    }
    long calls = duration != null ? 0 : total != null ? total : 1000;
    String[] names = CallInput.serviceAndMethod(method);
    String text = CallInput.text(arguments, data, root.stdin());
    int ioThreads = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
    try (Remote remote = Remote.connect(address, connection, ioThreads)) {
      ServiceDescription service = remote.describe(names[0]);
      MethodDescription described = Remote.method(service, names[1]);
      RawCall call =
          CallInput.encode(
              service, described, remote.jsonMapping(service), text, connection.timeout);
      PrintWriter err = spec.commandLine().getErr();
      LoadRun run = new LoadRun(remote.client(), call, concurrency, calls, duration);
      // Ctrl-C (or a kill) starts the JVM's shutdown: the hook stops the run and waits, at most
      // 30 s, until this thread has printed the summary of what ran; then the JVM exits (130).
      CountDownLatch reported = new CountDownLatch(1);
      Thread onSignal =
          new Thread(
              () -> {
                run.stop();
                try {
                  reported.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "rpcx-bench-interrupted");
      Runtime.getRuntime().addShutdownHook(onSignal);
      try {
        BenchResult result = run.run(err, System.console() != null);
        report(result);
        return result.exitCode();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new UserError(ExitCodes.SOFTWARE, "interrupted");
      } finally {
        reported.countDown();
        try {
          Runtime.getRuntime().removeShutdownHook(onSignal);
        } catch (IllegalStateException shuttingDown) {
          // the hook runs, and returns now that the summary is out
        }
      }
    }
  }

  /** Prints {@code result}: text or JSON on stdout, and the HTML report if asked. */
  private void report(BenchResult result) {
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(Json.write(result.summary()));
    } else {
      out.print(result.text());
    }
    if (html != null) {
      try {
        Files.writeString(html, BenchHtml.page(result), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw UserError.usage("--html: cannot write " + html + ": " + e.getMessage());
      }
      if (!json) {
        out.println();
        out.println("Report: " + html);
      }
    }
    out.flush(); // before a Ctrl-C's shutdown ends the JVM
  }
}
