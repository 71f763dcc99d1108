package io.rpcx.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import ch.qos.logback.classic.Level;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.rpcx.client.RpcxClient;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * The leak check fails a test that leaves an RPCX server or client open, or a buffer unreleased,
 * naming what leaked; a clean test passes. The leaking tests are run by the JUnit Platform's test
 * kit, as a build would run them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LeakCheckTest {
  /** What the leaking tests left open, closed here once their failure was seen. */
  static RpcxClient leakedClient;

  static RpcxServer leakedServer;

  @AfterEach
  void closeWhatLeaked() {
    if (leakedClient != null) {
      leakedClient.close();
      leakedClient = null;
    }
    if (leakedServer != null) {
      leakedServer.stop();
      leakedServer = null;
    }
  }

  /** Run by the test kit only: a test that builds a client and leaves it open. */
  static class LeavesAClientOpen {
    @RegisterExtension final RpcxExtension rpcx = RpcxExtension.withServices(new Greeter.Impl());

    @Test
    void leaks() {
      leakedClient = RpcxClient.builder().target("127.0.0.1", rpcx.port()).build();
      leakedClient.create(Greeter.class).greet("leak");
    }
  }

  /** Run by the test kit only: a test that starts a server of its own and leaves it running. */
  static class LeavesAServerRunning {
    @RegisterExtension
    final RpcxExtension rpcx = RpcxExtension.withServices(new Greeter.Impl()).inProcess();

    @Test
    void leaks() {
      leakedServer =
          RpcxServer.builder().inProcess("left-running").service(new Greeter.Impl()).build().start();
    }
  }

  /** Run by the test kit only: a test that never releases a buffer it took. */
  static class LeaksABuffer {
    @RegisterExtension final RpcxExtension rpcx = RpcxExtension.withServices(new Greeter.Impl());

    @Test
    void leaks() {
      ByteBuf buffer = PooledByteBufAllocator.DEFAULT.directBuffer(64);
      buffer.writeLong(42);
    }
  }

  /** Run by the test kit only: a test that cleans up, with the leak check turned off anyway. */
  static class LeavesAClientOpenWithoutLeakCheck {
    @RegisterExtension
    final RpcxExtension rpcx = RpcxExtension.withServices(new Greeter.Impl()).withoutLeakCheck();

    @Test
    void leaks() {
      leakedClient = RpcxClient.builder().target("127.0.0.1", rpcx.port()).build();
      leakedClient.create(Greeter.class).greet("leak");
    }
  }

  private static List<String> failures(Class<?> testClass) {
    return EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(testClass))
        .execute()
        .testEvents()
        .failed()
        .stream()
        .map(Event::getPayload)
        .map(payload -> payload.orElseThrow())
        .map(TestExecutionResult.class::cast)
        .map(result -> result.getThrowable().orElseThrow().getMessage())
        .toList();
  }

  @Test
  void aClientLeftOpenFailsTheTestNamingItsThreads() {
    List<String> failures = failures(LeavesAClientOpen.class);
    assertEquals(1, failures.size(), failures::toString);
    assertTrue(
        failures.get(0)
            .matches(
                "RpcxExtension leak check: RPCX threads still running after leaks\\(\\), so an"
                    + " RpcxServer or RpcxClient built in the test was not closed \\(close it, or"
                    + " use try-with-resources\\): rpcx-client-io-\\d+-1"),
        failures.get(0));
  }

  @Test
  void aServerLeftRunningFailsTheTestNamingItsThreads() {
    List<String> failures = failures(LeavesAServerRunning.class);
    assertEquals(1, failures.size(), failures::toString);
    assertTrue(
        failures.get(0)
            .matches(
                "RpcxExtension leak check: RPCX threads still running after leaks\\(\\), so an"
                    + " RpcxServer or RpcxClient built in the test was not closed \\(close it, or"
                    + " use try-with-resources\\): rpcx-server-accept-\\d+-1"),
        failures.get(0));
  }

  @Test
  void aBufferNeverReleasedFailsTheTestWithNettysRecordOfIt() {
    List<String> failures;
    try (LogCapture netty = LogCapture.of(ResourceLeakDetector.class)) {
      failures = failures(LeaksABuffer.class);
      // Netty reports the leak at ERROR too: here, once, with the same record.
      List<String> reports = netty.lines(Level.WARN);
      assertEquals(1, reports.size(), netty::all);
      assertTrue(
          reports.get(0).startsWith(
              "ERROR LEAK: ByteBuf.release() was not called before it's garbage-collected."),
          reports.get(0));
      assertTrue(reports.get(0).contains("LeakCheckTest$LeaksABuffer.leaks"), reports.get(0));
    }
    assertEquals(1, failures.size(), failures::toString);
    assertTrue(
        failures.get(0)
            .startsWith(
                "RpcxExtension leak check: a Netty buffer leaked after leaks(): ByteBuf was never"
                    + " released:"),
        failures.get(0));
    assertTrue(failures.get(0).contains("LeakCheckTest$LeaksABuffer.leaks"), failures.get(0));
  }

  @Test
  void withoutLeakCheckTheSameTestPasses() {
    assertEquals(List.of(), failures(LeavesAClientOpenWithoutLeakCheck.class));
  }
}
