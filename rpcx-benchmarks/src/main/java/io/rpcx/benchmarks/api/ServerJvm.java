package io.rpcx.benchmarks.api;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A system's server in a JVM of its own ({@link ServerJvmMain}), started from this JVM's {@code
 * java} and class path: so that what the server costs (its CPU time, {@code
 * io.rpcx.benchmarks.jmh.ServerCpuProfiler}) is told apart from what the client in this JVM costs.
 * Closing it stops the server and waits for its JVM to exit; the server JVM also exits when this
 * one does (its standard input closes). Its standard error is this JVM's, and so is anything else
 * it prints.
 *
 * <p>{@link #cpuNanos()} is the CPU time of every server JVM this JVM started, those still running
 * and those closed (counted up to their close): JMH closes a trial's server inside its last
 * iteration, before a profiler's end of that iteration.
 *
 * <pre>{@code
 * BenchmarkSystem system = Systems.get("grpc-on-rpcx");
 * try (Deployment d = Deployment.connect(system, ServerJvm.start(system.name(), List.of()))) {
 *   d.client().echo("hello");
 * }
 * }</pre>
 */
public final class ServerJvm implements BenchmarkServer {
  /** Guards {@link #running} and {@link #closedCpuNanos}, which change together. */
  private static final Object LOCK = new Object();
  private static final Set<ServerJvm> running = new HashSet<>();
  private static long closedCpuNanos;
  private static boolean anyStarted;

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
    String line;
    try {
      // What else reaches its standard output (a native agent's words) goes to standard error.
      while ((line = out.readLine()) != null && !line.startsWith(ServerJvmMain.PORT)) {
        System.err.println("[server JVM] " + line);
      }
    } catch (IOException e) {
      process.destroyForcibly();
      throw new UncheckedIOException("reading the port of the server JVM of " + system, e);
    }
    if (line == null) {
      throw new IllegalStateException(
          "the server JVM of " + system + " exited (" + exitCode(process) + ") before it served;"
              + " its standard error is above");
    }
    int port;
    try {
      port = Integer.parseInt(line.substring(ServerJvmMain.PORT.length()));
    } catch (NumberFormatException e) {
      process.destroyForcibly();
      throw new IllegalStateException("the server JVM of " + system + " said '" + line + "'", e);
    }
    Thread drain = new Thread(() -> copyToStandardError(out), "server-jvm-output");
    drain.setDaemon(true);
    drain.start();
    ServerJvm server = new ServerJvm(process, port);
    synchronized (LOCK) {
      running.add(server);
      anyStarted = true;
    }
    return server;
  }

  /**
   * The CPU time (user + system, all threads) of every server JVM this JVM has started, each
   * closed one up to its close; empty if none was started.
   *
   * @throws IllegalStateException if this system does not report a process's CPU time
   */
  public static OptionalLong cpuNanos() {
    synchronized (LOCK) {
      if (!anyStarted) {
        return OptionalLong.empty();
      }
      long nanos = closedCpuNanos;
      for (ServerJvm server : running) {
        nanos += server.cpuNanosNow();
      }
      return OptionalLong.of(nanos);
    }
  }

  private long cpuNanosNow() {
    return process
        .info()
        .totalCpuDuration()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "the CPU time of process " + process.pid() + " is not available here"))
        .toNanos();
  }

  /** Copies the rest of the server JVM's standard output, so that it never blocks on a full pipe. */
  private static void copyToStandardError(BufferedReader out) {
    try {
      String line;
      while ((line = out.readLine()) != null) {
        System.err.println("[server JVM] " + line);
      }
    } catch (IOException e) {
      // the JVM is gone
    }
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
    synchronized (LOCK) {
      if (running.remove(this) && process.isAlive()) {
        closedCpuNanos += cpuNanosNow();
      }
    }
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
