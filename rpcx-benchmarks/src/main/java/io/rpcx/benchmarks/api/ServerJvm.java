package io.rpcx.benchmarks.api;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A system's server in a JVM of its own ({@link ServerJvmMain}), started from this JVM's {@code
 * java} and class path: so that what the server costs (its CPU time, {@code
 * io.rpcx.benchmarks.jmh.ServerCpuProfiler}) is told apart from what the client in this JVM costs.
 * Closing it stops the server and waits for its JVM to exit; the server JVM also exits when this
 * one does (its standard input closes). Its standard error is this JVM's.
 *
 * <pre>{@code
 * BenchmarkSystem system = Systems.get("grpc-on-rpcx");
 * try (Deployment d = Deployment.connect(system, ServerJvm.start(system.name(), List.of()))) {
 *   d.client().echo("hello");
 * }
 * }</pre>
 */
public final class ServerJvm implements BenchmarkServer {
  private final Process process;
  private final PrintWriter commands;
  private final int port;

  private ServerJvm(Process process, int port) {
    this.process = process;
    this.commands = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
    this.port = port;
  }

  /**
   * Starts the server of the system registered as {@code system} in a new JVM with {@code
   * jvmOptions}, and waits until it serves.
   *
   * @throws IllegalStateException if the JVM exits or answers anything but its port
   */
  public static ServerJvm start(String system, List<String> jvmOptions) throws IOException {
    Systems.get(system); // an unknown name fails here, with the registered names
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(ServerJvmMain.class.getName());
    command.add(system);
    Process process =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String first;
    try {
      first = out.readLine();
    } catch (IOException e) {
      process.destroyForcibly();
      throw new UncheckedIOException("reading the port of the server JVM of " + system, e);
    }
    if (first == null || !first.startsWith(ServerJvmMain.PORT)) {
      process.destroyForcibly();
      String what =
          first == null ? "exited (" + exitCode(process) + ")" : "answered '" + first + "'";
      throw new IllegalStateException(
          "the server JVM of " + system + " " + what + " instead of telling its port;"
              + " its standard error is above");
    }
    return new ServerJvm(process, Integer.parseInt(first.substring(ServerJvmMain.PORT.length())));
  }

  @Override
  public int port() {
    return port;
  }

  /** The process id of the server JVM. */
  public long pid() {
    return process.pid();
  }

  /** Stops the server, waiting up to 30 s for its JVM to exit before killing it. */
  @Override
  public void close() {
    try {
      if (process.isAlive()) {
        commands.println(ServerJvmMain.QUIT);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private static String exitCode(Process process) {
    try {
      return process.waitFor(5, TimeUnit.SECONDS) ? "code " + process.exitValue() : "still running";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }
}
