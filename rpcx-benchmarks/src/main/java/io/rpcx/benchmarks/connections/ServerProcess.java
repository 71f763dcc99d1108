package io.rpcx.benchmarks.connections;

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
 * A {@link CostServer} in a JVM of its own, started from this JVM's class path (and its {@code
 * java}, unless told another), and driven over its standard input and output. Its standard error is this JVM's. One thread
 * drives it at a time.
 */
final class ServerProcess implements AutoCloseable {
  private final Process process;
  private final BufferedReader replies;
  private final PrintWriter commands;
  private final int port;

  private ServerProcess(Process process) throws IOException {
    this.process = process;
    this.replies =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.commands = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
    String first = reply();
    if (!first.startsWith("port ")) {
      process.destroyForcibly();
      throw new IllegalStateException("the server JVM answered '" + first + "' instead of its port");
    }
    this.port = Integer.parseInt(first.substring("port ".length()));
  }

  /**
   * Starts a server JVM with {@code jvmOptions}, accepting {@code maxConnections}, running calls
   * on its event loops if {@code directExecutor}, else on RPCX's default worker pool.
   */
  static ServerProcess start(List<String> jvmOptions, int maxConnections, boolean directExecutor)
      throws IOException {
    return start(thisJava(), jvmOptions, maxConnections, directExecutor);
  }

  /** As {@link #start(List, int, boolean)}, on the JVM {@code java}. */
  static ServerProcess start(
      Path java, List<String> jvmOptions, int maxConnections, boolean directExecutor)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(CostServer.class.getName());
    command.add(String.valueOf(maxConnections));
    command.add(directExecutor ? "direct" : "workers");
    Process process =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    return new ServerProcess(process);
  }

  /** The {@code java} launcher of this JVM. */
  static Path thisJava() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  int port() {
    return port;
  }

  long pid() {
    return process.pid();
  }

  /** A snapshot of the server JVM's memory, after a full GC there. */
  MemorySnapshot measure() {
    commands.println("measure");
    List<String> lines = new ArrayList<>();
    String line;
    while (!(line = reply()).equals("end")) {
      lines.add(line);
    }
    return MemorySnapshot.parse(lines);
  }

  /** Waits until the server has at least {@code n} calls in flight. */
  void awaitCalls(int n) {
    command("await-calls " + n);
  }

  /** Waits until the server has exactly {@code n} connections open. */
  void awaitConnections(int n) {
    command("await-connections " + n);
  }

  /** Waits until at least {@code n} calls wait in {@code hold} or {@code block}. */
  void awaitWaiting(int n) {
    command("await-waiting " + n);
  }

  /** Lets every waiting call finish, and later ones pass. */
  void openGate() {
    command("open-gate");
  }

  /** Makes calls of {@code hold} and {@code block} from now on wait for {@link #openGate()}. */
  void closeGate() {
    command("close-gate");
  }

  private void command(String command) {
    commands.println(command);
    String reply = reply();
    if (!reply.equals("ok")) {
      throw new IllegalStateException("the server JVM answered '" + command + "' with: " + reply);
    }
  }

  /** The next protocol line, without its prefix; other output is passed to standard error. */
  private String reply() {
    try {
      String line;
      while ((line = replies.readLine()) != null) {
        if (line.startsWith(CostServer.PREFIX)) {
          return line.substring(CostServer.PREFIX.length());
        }
        System.err.println("[server] " + line);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new IllegalStateException("the server JVM exited (" + exitCode() + ")");
  }

  private String exitCode() {
    try {
      return process.waitFor(5, TimeUnit.SECONDS) ? "code " + process.exitValue() : "still running";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  /** Stops the server and its JVM. */
  @Override
  public void close() {
    try {
      if (process.isAlive()) {
        commands.println("quit");
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
