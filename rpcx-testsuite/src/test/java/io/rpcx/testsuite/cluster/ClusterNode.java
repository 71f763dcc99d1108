package io.rpcx.testsuite.cluster;

import io.rpcx.registry.zookeeper.ZooKeeperRegistry;
import io.rpcx.server.RpcxServer;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One server of the cluster in a process of its own, so that a test can kill it as a machine dies
 * ({@link Process#destroyForcibly()}: no goodbye to clients or to ZooKeeper, whose session lingers
 * until it expires). Registers {@link ClusterServiceImpl} in ZooKeeper and prints {@code READY
 * <port>}.
 *
 * <p>Arguments: {@code <zookeeper connect string, or - for none> <name> <port, 0 for any>}.
 */
public final class ClusterNode {

  public static void main(String[] args) throws Exception {
    ZooKeeperRegistry registry =
        args[0].equals("-")
            ? null
            : ZooKeeperRegistry.builder()
                .connectString(args[0])
                .sessionTimeout(Duration.ofSeconds(20))
                .build();
    RpcxServer.Builder builder =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .port(Integer.parseInt(args[2]))
            .service(new ClusterServiceImpl(args[1]));
    if (registry != null) {
      builder.registrar(registry);
    }
    RpcxServer server = builder.build().start();
    System.out.println("READY " + server.port());
    System.out.flush();
    // Runs until killed; a line on stdin stops it gracefully.
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    server.stop(Duration.ofSeconds(5));
    if (registry != null) {
      registry.close();
    }
  }

  /** A running node process. */
  static final class Handle implements AutoCloseable {
    final Process process;
    final int port;

    private Handle(Process process, int port) {
      this.process = process;
      this.port = port;
    }

    /** Starts a node and waits until it listens. */
    static Handle start(String zooKeeper, String name, int port) throws IOException {
      String classPath =
          System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
      List<String> command = new ArrayList<>();
      command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
      command.addAll(List.of("-Xmx96m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
      command.addAll(List.of("-cp", classPath, ClusterNode.class.getName(), zooKeeper, name,
          String.valueOf(port)));
      Process process =
          new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      BufferedReader out =
          new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      String line;
      while ((line = out.readLine()) != null) {
        if (line.startsWith("READY ")) {
          return new Handle(process, Integer.parseInt(line.substring(6).trim()));
        }
      }
      process.destroyForcibly();
      throw new IOException("node " + name + " ended before it was ready");
    }

    /** Kills the process at once, as a machine that loses power. */
    void kill() throws InterruptedException {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
      if (process.isAlive()) {
        try {
          kill();
        } catch (InterruptedException e) {
          process.destroyForcibly();
          Thread.currentThread().interrupt();
        }
      }
    }
  }
}
