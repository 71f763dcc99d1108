package io.rpcx.benchmarks.faults;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.core.TlsConfig;
import io.rpcx.server.RpcxServer;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One server of the fault tools in a JVM of its own, so that a tool can stop it as a hung machine
 * stops ({@code kill -STOP}: its sockets stay open, nothing is answered) and let it go on ({@code
 * kill -CONT}). Publishes {@link Named} on 127.0.0.1 and prints {@code READY <port>}; a line on
 * standard input (or its end) stops it.
 *
 * <p>Arguments: {@code <name> [tls <folder of TlsFiles> [mutual] [provider=JDK|OPENSSL|AUTO]]}:
 * with {@code tls}, the server presents {@code server.p12} of the folder; with {@code mutual},
 * clients must present {@code client.crt}; {@code provider} chooses the TLS implementation.
 */
public final class NodeServer {

  /** The service of the nodes: which node answered. */
  @RPCXClient(name = "node")
  public interface Named {
    /** The answering node's name, after {@code millis} of work. */
    String whoAmI(int millis);
  }

  /** A node's implementation. */
  @RPCXServer(name = "node")
  public static final class NamedImpl implements Named {
    private final String name;

    NamedImpl(String name) {
      this.name = name;
    }

    @Override
    public String whoAmI(int millis) {
      long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
      for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
        LockSupport.parkNanos(left);
      }
      return name;
    }
  }

  private NodeServer() {}

  public static void main(String[] args) throws Exception {
    RpcxServer.Builder builder =
        RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(new NamedImpl(args[0]));
    if (args.length > 2 && args[1].equals("tls")) {
      List<String> options = List.of(args).subList(3, args.length);
      TlsConfig.Provider provider = TlsConfig.Provider.AUTO;
      for (String option : options) {
        if (option.startsWith("provider=")) {
          provider = TlsConfig.Provider.valueOf(option.substring("provider=".length()));
        }
      }
      builder.tls(TlsFiles.in(Path.of(args[2])).server(options.contains("mutual"), provider));
    }
    RpcxServer server = builder.build().start();
    System.out.println("READY " + server.port());
    System.out.flush();
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    server.stop(Duration.ofSeconds(1));
  }

  /** A running node: its process, its port. */
  static final class Handle implements AutoCloseable {
    final String name;
    final Process process;
    final int port;

    private Handle(String name, Process process, int port) {
      this.name = name;
      this.process = process;
      this.port = port;
    }

    /** Starts node {@code name} from this JVM's class path and waits until it listens. */
    static Handle start(String name) throws IOException {
      return start(name, List.of(), List.of());
    }

    /**
     * Starts node {@code name} with {@code jvmOptions} and the {@code arguments} after its name
     * (see {@link NodeServer}), and waits until it listens.
     */
    static Handle start(String name, List<String> jvmOptions, List<String> arguments)
        throws IOException {
      List<String> command = new ArrayList<>();
      command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
      command.addAll(List.of("-Xmx128m", "-XX:+UseSerialGC"));
      command.addAll(jvmOptions);
      command.addAll(
          List.of("-cp", System.getProperty("java.class.path"), NodeServer.class.getName(), name));
      command.addAll(arguments);
      Process process =
          new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      String line;
      while ((line = out.readLine()) != null) {
        if (line.startsWith("READY ")) {
          return new Handle(name, process, Integer.parseInt(line.substring(6).trim()));
        }
      }
      process.destroyForcibly();
      throw new IOException("node " + name + " ended before it was ready");
    }

    String address() {
      return "127.0.0.1:" + port;
    }

    /** Sends the process {@code signal} (STOP, CONT) with the system's {@code kill}. */
    void signal(String signal) throws IOException, InterruptedException {
      Process kill =
          new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid()))
              .inheritIO()
              .start();
      if (kill.waitFor() != 0) {
        throw new IOException("kill -" + signal + " " + process.pid() + " failed");
      }
    }

    @Override
    public void close() {
      try {
        signal("CONT"); // a stopped process cannot exit
      } catch (IOException | InterruptedException e) {
        // going anyway
      }
      process.destroyForcibly();
    }
  }
}
