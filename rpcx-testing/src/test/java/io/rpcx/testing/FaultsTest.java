package io.rpcx.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.core.CallTimeoutException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.UnavailableException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Each scripted fault, and what the client sees of it: the exception and its whole message. The
 * servers run in-process, so the messages name their in-process server; over TCP they would name
 * 127.0.0.1 and the port.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FaultsTest {

  @Nested
  class Latency {
    final Greeter.Impl greeter = new Greeter.Impl();

    @RegisterExtension
    final RpcxExtension rpcx =
        RpcxExtension.withServices(greeter)
            .inProcess()
            .faults(Faults.builder().latency("greeter/greet", Duration.ofSeconds(3)).build())
            .client(client -> client.defaultTimeout(Duration.ofMillis(300)).maxAttempts(1));

    @Test
    void aCallSlowerThanItsTimeoutTimesOutThoughItRan() {
      CallTimeoutException thrown =
          assertThrows(CallTimeoutException.class, () -> rpcx.create(Greeter.class).greet("slow"));
      assertEquals(
          "greeter/greet timed out after 300 ms waiting for in-process server '"
              + rpcx.inProcessName() + "'",
          thrown.getMessage());
      assertEquals(1, greeter.calls.get());
    }

    @Test
    void otherMethodsAnswerAtOnce() {
      assertEquals("*waves at you*", rpcx.create(Greeter.class).wave("you"));
    }
  }

  @Nested
  class ShortLatency {
    @RegisterExtension
    final RpcxExtension rpcx =
        RpcxExtension.withServices(new Greeter.Impl())
            .inProcess()
            .faults(Faults.builder().latency("*", Duration.ofMillis(200)).build());

    @Test
    void delaysTheReplyByAtLeastTheLatency() {
      long start = System.nanoTime();
      assertEquals("hello late", rpcx.create(Greeter.class).greet("late"));
      assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(200));
    }
  }

  @Nested
  class Answer {
    final Greeter.Impl greeter = new Greeter.Impl();

    @RegisterExtension
    final RpcxExtension rpcx =
        RpcxExtension.withServices(greeter)
            .inProcess()
            .faults(
                Faults.builder()
                    .answer("greeter/*", StatusCode.UNAVAILABLE, "down for maintenance")
                    .dropReplies("greeter/wave") // an answered status wins
                    .build())
            .client(client -> client.maxAttempts(1));

    @Test
    void theCallerGetsTheStatusAndMessageAndTheImplementationNeverRuns() {
      UnavailableException thrown =
          assertThrows(UnavailableException.class, () -> rpcx.create(Greeter.class).greet("x"));
      assertEquals(
          "greeter/greet failed on in-process server '" + rpcx.inProcessName()
              + "': down for maintenance",
          thrown.getMessage());
      assertThrows(UnavailableException.class, () -> rpcx.create(Greeter.class).wave("x"));
      assertEquals(0, greeter.calls.get());
    }
  }

  @Nested
  class DroppedReplies {
    final Greeter.Impl greeter = new Greeter.Impl();

    @RegisterExtension
    final RpcxExtension rpcx =
        RpcxExtension.withServices(greeter)
            .inProcess()
            .faults(Faults.builder().dropReplies("greeter/greet").build())
            .client(client -> client.defaultTimeout(Duration.ofMillis(300)).maxAttempts(1));

    @Test
    void theCallRunsAndItsCallerTimesOut() {
      CallTimeoutException thrown =
          assertThrows(CallTimeoutException.class, () -> rpcx.create(Greeter.class).greet("x"));
      assertEquals(
          "greeter/greet timed out after 300 ms waiting for in-process server '"
              + rpcx.inProcessName() + "'",
          thrown.getMessage());
      assertEquals(1, greeter.calls.get());
      assertEquals("*waves at y*", rpcx.create(Greeter.class).wave("y"));
    }
  }

  @Nested
  class ConnectionReset {
    final Greeter.Impl greeter = new Greeter.Impl();

    @RegisterExtension
    final RpcxExtension rpcx =
        RpcxExtension.withServices(greeter)
            .faults(Faults.builder().resetConnectionAfterCalls(2).build())
            .client(client -> client.maxAttempts(1));

    @Test
    void theCallAfterTheCountFailsAsUnavailableAndTheNextReconnects() {
      Greeter remote = rpcx.create(Greeter.class);
      assertEquals("hello 1", remote.greet("1"));
      assertEquals("hello 2", remote.greet("2"));
      UnavailableException thrown =
          assertThrows(UnavailableException.class, () -> remote.greet("3"));
      assertEquals(
          "connection to 127.0.0.1:" + rpcx.port() + " closed while greeter/greet was in flight:"
              + " the connection to 127.0.0.1:" + rpcx.port() + " failed: Connection reset",
          thrown.getMessage());
      assertFalse(thrown.isSafeToRetry(), "the call ran");
      assertEquals(3, greeter.calls.get());
      assertEquals("hello 4", remote.greet("4"));
    }
  }

  @Test
  void aFaultNamingAServiceTheServerDoesNotPublishStopsTheStart() {
    RpcxExtension rpcx =
        RpcxExtension.withServices(new Greeter.Impl())
            .faults(Faults.builder().dropReplies("greter/greet").build())
            .withoutLeakCheck();
    IllegalArgumentException thrown =
        assertThrows(IllegalArgumentException.class, () -> rpcx.beforeEach(null));
    assertEquals(
        "faults: 'greter/greet' names service 'greter', which the server does not publish (it"
            + " publishes: greeter)",
        thrown.getMessage());
  }

  @Test
  void malformedFaultsAreRefusedNamingTheProblem() {
    Faults.Builder faults = Faults.builder();
    assertEquals(
        "calls: 'greet' (expected: \"service/method\", as in \"orders/loadOrder\", \"service/*\""
            + " or \"*\")",
        assertThrows(IllegalArgumentException.class, () -> faults.dropReplies("greet"))
            .getMessage());
    assertEquals(
        "calls: 'greeter/gr*' (expected: \"service/method\", as in \"orders/loadOrder\","
            + " \"service/*\" or \"*\")",
        assertThrows(IllegalArgumentException.class, () -> faults.dropReplies("greeter/gr*"))
            .getMessage());
    assertEquals(
        "latency of greeter/greet: PT0S (expected: > 0)",
        assertThrows(
                IllegalArgumentException.class,
                () -> faults.latency("greeter/greet", Duration.ZERO))
            .getMessage());
    assertEquals(
        "answer for *: status OK is no error (expected: another StatusCode)",
        assertThrows(
                IllegalArgumentException.class, () -> faults.answer("*", StatusCode.OK, "fine"))
            .getMessage());
    assertEquals(
        "resetConnectionAfterCalls: -1 (expected: >= 0)",
        assertThrows(IllegalArgumentException.class, () -> faults.resetConnectionAfterCalls(-1))
            .getMessage());
  }
}
