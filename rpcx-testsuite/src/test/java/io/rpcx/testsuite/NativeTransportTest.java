package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.abort;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.RpcxClient;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.time.Duration;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Calls over each native transport this machine has. The tests' class path holds the native jars
 * of the platform (through rpcx-examples' profiles), as a user's would who added them: on Linux the
 * automatic choice is epoll, and io_uring is used when asked for and the kernel allows it.
 */
class NativeTransportTest {
  private static final String OS = System.getProperty("os.name").toLowerCase(Locale.ROOT);
  private static final String ARCH = System.getProperty("os.arch");

  @Test
  void onLinuxTheAutomaticChoiceIsEpoll() {
    assumeTrue(
        OS.startsWith("linux") && (ARCH.equals("amd64") || ARCH.equals("aarch64")),
        "Linux on x86_64 or aarch64, where the examples' profile adds native epoll");
    assertEquals("(epoll)", transportOfAnEchoCall("auto"));
  }

  @Test
  void ioUringWhenAskedForAndTheKernelAllowsIt() {
    assumeTrue(OS.startsWith("linux"), "io_uring is a Linux transport");
    String transport;
    try {
      transport = transportOfAnEchoCall("io_uring");
    } catch (IllegalStateException e) {
      assertTrue(
          e.getMessage().startsWith("rpcx.transport=io_uring, but native io_uring is unavailable here"),
          e.getMessage());
      abort("io_uring is not allowed here: " + e.getMessage());
      return;
    }
    assertEquals("(io_uring)", transport);
  }

  @Test
  void nioWhenTheBuilderSaysSo() {
    try (LogCapture log = LogCapture.rpcx();
        RpcxServer server =
            RpcxServer.builder()
                .bindAddress("127.0.0.1")
                .port(0)
                .nativeTransport(false)
                .service(new EchoService.Impl())
                .build()
                .start();
        RpcxClient client =
            RpcxClient.builder().target("127.0.0.1", server.port()).nativeTransport(false).build()) {
      assertEquals("over nio", client.create(EchoService.class).echo("over nio"));
      assertTrue(
          log.messages(Level.INFO).contains("RPCX server listening on /127.0.0.1:" + server.port()
              + " (nio), services: echo"),
          log.all());
    }
  }

  /** The transport in the start line of a server built, with its client, under {@code setting}. */
  private static String transportOfAnEchoCall(String setting) {
    String previous = System.getProperty("rpcx.transport");
    System.setProperty("rpcx.transport", setting);
    try (LogCapture log = LogCapture.rpcx();
        RpcxServer server =
            RpcxServer.builder()
                .bindAddress("127.0.0.1")
                .port(0)
                .shutdownGracePeriod(Duration.ofSeconds(5))
                .service(new EchoService.Impl())
                .build()
                .start();
        RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      assertEquals("native", client.create(EchoService.class).echo("native"));
      String started =
          log.messages(Level.INFO).stream()
              .filter(line -> line.startsWith("RPCX server listening on"))
              .findFirst()
              .orElseThrow();
      return started.substring(started.indexOf('('), started.indexOf(')') + 1);
    } finally {
      if (previous == null) {
        System.clearProperty("rpcx.transport");
      } else {
        System.setProperty("rpcx.transport", previous);
      }
    }
  }
}
