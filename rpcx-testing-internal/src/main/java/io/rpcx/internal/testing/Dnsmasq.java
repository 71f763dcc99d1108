package io.rpcx.internal.testing;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real DNS server for tests: dnsmasq (the Debian package {@code dnsmasq}), started on
 * 127.0.0.1 on a free port, authoritative for {@code .test}, serving the A/AAAA records of a
 * hosts file the test rewrites ({@link #hosts}, re-read on SIGHUP) and the SRV records it is
 * started with ({@link #srv}, which take a restart). Answers carry the TTL it was given.
 */
public final class Dnsmasq implements AutoCloseable {
  private static final Path BINARY = Path.of("/usr/sbin/dnsmasq");

  private final Path directory;
  private final int ttlSeconds;
  private int port;
  private final List<String> srvRecords = new ArrayList<>();
  private Process process;

  /** Whether dnsmasq is installed; tests that need it skip without it, naming the package. */
  public static boolean isInstalled() {
    return Files.isExecutable(BINARY);
  }

  /** The reason a test skips without it. */
  public static final String MISSING =
      "needs the DNS server dnsmasq: install the Debian package dnsmasq (apt-get install dnsmasq)";

  /** Starts dnsmasq, answering with a TTL of {@code ttlSeconds}, with no record yet. */
  public Dnsmasq(int ttlSeconds) throws IOException {
    this.ttlSeconds = ttlSeconds;
    this.directory = Files.createTempDirectory("rpcx-dnsmasq");
    Files.writeString(directory.resolve("hosts"), "");
    // dnsmasq listens on the port over UDP and TCP: a port free for UDP may be taken for TCP (by
    // another test's connection), or taken by anyone between the probe and dnsmasq's bind. Then
    // it exits at once saying so, and another port is tried.
    for (int attempt = 1; ; attempt++) {
      this.port = freeUdpPort();
      try {
        start();
        return;
      } catch (IOException e) {
        if (attempt == 5 || !String.valueOf(e.getMessage()).contains("Address already in use")) {
          throw e;
        }
      }
    }
  }

  /** The address to send queries to. */
  public InetSocketAddress address() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
  }

  /** {@code 127.0.0.1:port}, for targets and messages. */
  public String hostAndPort() {
    return "127.0.0.1:" + port;
  }

  /** Serves {@code lines} ({@code "127.0.0.2 orders.test"}) as the A/AAAA records, from now. */
  public void hosts(String... lines) throws IOException {
    Files.writeString(directory.resolve("hosts"), String.join("\n", lines) + "\n");
    // dnsmasq re-reads its hosts files on SIGHUP and clears its cache.
    new ProcessBuilder("kill", "-HUP", Long.toString(process.pid())).start().onExit().join();
  }

  /**
   * Serves these SRV records, each {@code name,target,port}, from now (dnsmasq restarts on the
   * same port to read them).
   */
  public void srv(String... records) throws IOException {
    srvRecords.clear();
    srvRecords.addAll(List.of(records));
    stop();
    start();
  }

  /** Stops answering, as a DNS server that went down does. */
  public void stop() {
    if (process != null) {
      process.destroy();
      try {
        process.waitFor(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      process.destroyForcibly();
      process = null;
    }
  }

  /** Answers again, on the same port, with the same records. */
  public void start() throws IOException {
    StringBuilder config = new StringBuilder();
    for (String record : srvRecords) {
      config.append("srv-host=").append(record).append('\n');
    }
    Files.writeString(directory.resolve("dnsmasq.conf"), config);
    List<String> command =
        List.of(
            BINARY.toString(),
            "--keep-in-foreground",
            "--port=" + port,
            "--listen-address=127.0.0.1",
            "--bind-interfaces",
            "--no-resolv",
            "--no-hosts",
            "--local=/test/",
            "--addn-hosts=" + directory.resolve("hosts"),
            "--local-ttl=" + ttlSeconds,
            "--auth-ttl=" + ttlSeconds,
            "--conf-file=" + directory.resolve("dnsmasq.conf"),
            "--pid-file=",
            "--user=" + System.getProperty("user.name"),
            "--log-facility=" + directory.resolve("dnsmasq.log"));
    process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(directory.resolve("output.log").toFile())
            .start();
    awaitAnswering();
  }

  /** Waits until the UDP port is bound (dnsmasq binds it before it answers). */
  private void awaitAnswering() throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() - deadline < 0) {
      if (!process.isAlive()) {
        throw new IOException(
            "dnsmasq exited with " + process.exitValue() + ": "
                + Files.readString(directory.resolve("output.log")));
      }
      try (DatagramSocket probe = new DatagramSocket(null)) {
        probe.bind(address());
      } catch (IOException bound) {
        return; // in use: dnsmasq has it
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
    }
    throw new IOException("dnsmasq did not bind " + hostAndPort() + " within 10 s");
  }

  private static int freeUdpPort() throws IOException {
    try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @Override
  public void close() throws IOException {
    stop();
    try (var files = Files.list(directory)) {
      for (Path file : files.toList()) {
        Files.deleteIfExists(file);
      }
    }
    Files.deleteIfExists(directory);
  }
}
