package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.RemoteFailureException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.ExceptionLogging;
import io.rpcx.server.RpcxServer;
import io.rpcx.testing.RpcxExtension;
import io.rpcx.testsuite.Shop.OutOfStockException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The stack trace of what an implementation threw stays on the server, unless the server is asked
 * to send it ({@code RpcxServer.Builder.sendStackTraces(true)}): then the caller's exception, a
 * declared one rebuilt or a {@code RemoteFailureException}, of a call or of a stream's end, shows
 * the server's frames first, innermost first, then those it was made with on the client, as Java
 * RMI shows a remote exception. A trace that would pass the frame limit is left out, never the
 * exception's fields. (A server that sends more frames than the 256 kept: MalformedInputTest.)
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RemoteStackTracesTest {
  private static final String IMPL = Shop.Impl.class.getName();

  @RegisterExtension
  static final RpcxExtension quiet =
      RpcxExtension.withServices(new Shop.Impl())
          .server(builder -> builder.exceptionLogging(ExceptionLogging.off(), ExceptionLogging.off()));

  @RegisterExtension
  static final RpcxExtension verbose =
      RpcxExtension.withServices(new Shop.Impl())
          .server(
              builder ->
                  builder
                      .sendStackTraces(true)
                      .exceptionLogging(ExceptionLogging.off(), ExceptionLogging.off()));

  @Test
  void byDefaultTheCallerSeesNoFrameOfTheServer() throws Exception {
    Shop shop = quiet.create(Shop.class);
    OutOfStockException declared =
        assertThrows(OutOfStockException.class, () -> shop.buy("A-1", 5, List.of()));
    assertEquals("A-1", declared.getSku());
    assertNoServerFrame(declared);
    assertNoServerFrame(assertThrows(RemoteFailureException.class, () -> shop.restock("A-1")));
    assertNoServerFrame(streamFailure(shop));
  }

  @Test
  void whenAskedADeclaredExceptionShowsTheServersFramesBeforeItsOwn() {
    OutOfStockException e =
        assertThrows(
            OutOfStockException.class, () -> verbose.create(Shop.class).buy("A-1", 5, List.of()));
    assertEquals("A-1", e.getSku(), "its fields travel with it");
    assertEquals(5, e.getRequested());
    StackTraceElement thrower = e.getStackTrace()[0];
    assertEquals(IMPL + ".buy(Shop.java:" + thrower.getLineNumber() + ")", thrower.toString());
    assertTrue(thrower.getLineNumber() > 0, thrower::toString);
    assertServerFramesFirst(e);
  }

  @Test
  void whenAskedAnUndeclaredExceptionShowsTheServersFramesBeforeItsOwn() {
    RemoteFailureException e =
        assertThrows(
            RemoteFailureException.class, () -> verbose.create(Shop.class).restock("A-1"));
    assertEquals(IllegalStateException.class.getName(), e.remoteClassName());
    assertEquals(IMPL, e.getStackTrace()[0].getClassName());
    assertEquals("restock", e.getStackTrace()[0].getMethodName());
    assertServerFramesFirst(e);
  }

  @Test
  void whenAskedTheEndOfAServerStreamCarriesTheTraceToo() throws Exception {
    OutOfStockException e =
        assertInstanceOf(OutOfStockException.class, streamFailure(verbose.create(Shop.class)));
    assertEquals("C-3", e.getSku());
    // Thrown in the publisher's Subscription.request, an anonymous class of the implementation.
    assertTrue(e.getStackTrace()[0].getClassName().startsWith(IMPL + "$"), e::toString);
    assertEquals("request", e.getStackTrace()[0].getMethodName());
    assertServerFramesFirst(e);
  }

  @Test
  void aTraceOverTheFrameLimitIsLeftOutAndTheExceptionStillArrivesWhole() {
    RpcxServer server =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .maxFrameSize(4096)
            .sendStackTraces(true)
            .exceptionLogging(ExceptionLogging.off(), ExceptionLogging.off())
            .service(new Shop.Impl())
            .build()
            .start();
    try (LogCapture logs = LogCapture.rpcx();
        RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      Shop shop = client.create(Shop.class);
      // 256 frames of Shop$Impl.reserve: about 14 KB.
      OutOfStockException deep =
          assertThrows(OutOfStockException.class, () -> shop.reserve("A-1", 300));
      assertEquals("A-1", deep.getSku());
      assertNoServerFrame(deep);
      // A short one still fits.
      assertServerFramesFirst(
          assertThrows(OutOfStockException.class, () -> shop.reserve("A-1", 0)));
      List<String> warnings =
          logs.events("io.rpcx.server.internal.transport.ReplySender", Level.WARN);
      assertEquals(1, warnings.size(), warnings::toString);
      assertTrue(
          warnings
              .get(0)
              .matches(
                  "WARN The stack trace of io\\.rpcx\\.testsuite\\.Shop\\$OutOfStockException to"
                      + " send to /127\\.0\\.0\\.1:\\d+ would pass the frame limit of 4096 bytes:"
                      + " sending the exception without it"),
          warnings.get(0));
    } finally {
      server.stop();
    }
  }

  /** What a subscriber to {@code shop.watch} gets when the stream fails after two items. */
  private static Throwable streamFailure(Shop shop) throws Exception {
    CompletableFuture<Throwable> failure = new CompletableFuture<>();
    shop.watch("C-3", 2)
        .subscribe(
            new Flow.Subscriber<String>() {
              @Override
              public void onSubscribe(Flow.Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
              }

              @Override
              public void onNext(String item) {}

              @Override
              public void onError(Throwable throwable) {
                failure.complete(throwable);
              }

              @Override
              public void onComplete() {
                failure.complete(null);
              }
            });
    return failure.get(10, TimeUnit.SECONDS);
  }

  private static void assertNoServerFrame(Throwable e) {
    assertEquals(
        -1,
        firstIndex(e, frame -> frame.getClassName().startsWith(IMPL)),
        () -> "a frame of the implementation in " + Arrays.toString(e.getStackTrace()));
    assertEquals(
        -1,
        firstIndex(e, frame -> frame.getClassName().startsWith("io.rpcx.server.")),
        () -> "a frame of the server in " + Arrays.toString(e.getStackTrace()));
  }

  /**
   * The implementation's frames, down through the server's (its dispatch, its thread), then the
   * client's: the frames the exception was made with where the failure arrived.
   */
  private static void assertServerFramesFirst(Throwable e) {
    StackTraceElement[] trace = e.getStackTrace();
    assertTrue(trace[0].getClassName().startsWith(IMPL), () -> Arrays.toString(trace));
    int lastServer = -1;
    for (int i = 0; i < trace.length; i++) {
      if (trace[i].getClassName().startsWith("io.rpcx.server.")) {
        lastServer = i;
      }
    }
    int firstClient = firstIndex(e, frame -> frame.getClassName().startsWith("io.rpcx.client."));
    assertTrue(lastServer > 0, () -> "no frame of the server in " + Arrays.toString(trace));
    assertTrue(
        firstClient > lastServer,
        () -> "the client's frames do not follow the server's: " + Arrays.toString(trace));
  }

  private static int firstIndex(Throwable e, Predicate<StackTraceElement> matching) {
    StackTraceElement[] trace = e.getStackTrace();
    for (int i = 0; i < trace.length; i++) {
      if (matching.test(trace[i])) {
        return i;
      }
    }
    return -1;
  }
}
