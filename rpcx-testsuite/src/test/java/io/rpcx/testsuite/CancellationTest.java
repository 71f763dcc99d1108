package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.client.RpcxClient;
import io.rpcx.core.CallTimeoutException;
import io.rpcx.core.CancelledException;
import io.rpcx.core.RpcxContext;
import io.rpcx.core.UnavailableException;
import io.rpcx.server.RpcxServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A call whose caller gave up stops on the server: the client tells the server (its timeout, its
 * future cancelled, its thread interrupted, its stream cancelled, its connection closed), the server
 * cancels the call's {@code RpcxContext} (and interrupts the thread of a method annotated
 * {@code @InterruptOnCancel}), a call not yet running never runs, and calls made while serving a
 * cancelled call are cancelled in turn. The 172 ten-second calls of issue 30, whose callers time
 * out, all stop instead of running on for nobody.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CancellationTest {
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    Collections.reverse(open);
    for (AutoCloseable closeable : open) {
      closeable.close();
    }
  }

  @Test
  void tenSecondCallsWhoseCallersTimedOutStopOnTheServer() throws Exception {
    int callers = 172;
    SlowService.Impl slow = new SlowService.Impl();
    RpcxServer server = server(slow, 0);
    RpcxClient client = client(server, Duration.ofSeconds(1));
    SlowService service = client.create(SlowService.class);
    ExecutorService threads = Executors.newFixedThreadPool(callers);
    open.add(threads::shutdownNow);
    List<Future<CallTimeoutException>> calls = new ArrayList<>();
    for (int i = 0; i < callers; i++) {
      calls.add(
          threads.submit(
              () -> assertThrows(CallTimeoutException.class, () -> service.sleep(10_000))));
    }
    for (Future<CallTimeoutException> call : calls) {
      call.get(20, TimeUnit.SECONDS);
    }
    await(() -> slow.running.get() == 0, "every call to stop");
    int started = slow.started.get(); // the others were cancelled before they could run
    assertTrue(started > 0, "some calls ran");
    assertEquals(
        Collections.nCopies(started, "the client cancelled the call: its timeout passed on the client"),
        slow.interruptions,
        "every call that ran was interrupted, for that reason");
  }

  @Test
  void cancellingTheFutureStopsTheCall() throws Exception {
    SlowService.Impl slow = new SlowService.Impl();
    RpcxClient client = client(server(slow, 0), Duration.ofMinutes(1));
    CompletableFuture<String> call = client.create(SlowService.Async.class).sleep(10_000);
    await(() -> slow.running.get() == 1, "the call to run");

    assertTrue(call.cancel(true));
    await(() -> slow.running.get() == 0, "the call to stop");
    assertEquals(
        List.of("the client cancelled the call: the caller cancelled its future"),
        slow.interruptions);
  }

  @Test
  void aMethodThatDoesNotOptInSeesItsCallCancelledAndIsNotInterrupted() throws Exception {
    SlowService.Impl slow = new SlowService.Impl();
    RpcxClient client = client(server(slow, 0), Duration.ofMillis(200));
    assertThrows(CallTimeoutException.class, () -> client.create(SlowService.class).poll(10_000));
    await(() -> slow.running.get() == 0, "the call to stop");
    assertEquals(
        List.of("the client cancelled the call: its timeout passed on the client"),
        slow.cancellations);
    assertEquals(List.of(), slow.interruptions, "never interrupted: it did not opt in");
  }

  @Test
  void callsMadeWhileServingACancelledCallAreCancelledToo() throws Exception {
    SlowService.Impl back = new SlowService.Impl();
    RpcxServer backServer = server(back, 0);
    SlowService.Impl front = new SlowService.Impl();
    front.relayTo(client(backServer, Duration.ofMinutes(1)).create(SlowService.class));
    RpcxClient client = client(server(front, 0), Duration.ofMinutes(1));

    CompletableFuture<String> call = client.create(SlowService.Async.class).relay(10_000);
    await(() -> back.running.get() == 1, "the relayed call to run");
    call.cancel(true);
    await(() -> back.running.get() == 0 && front.running.get() == 0, "both calls to stop");
    assertEquals(
        List.of(
            "the client cancelled the call: the call being served, slow/relay, was cancelled (the"
                + " client cancelled the call: the caller cancelled its future)"),
        back.interruptions);
  }

  @Test
  void aCallMadeInACancelledContextIsNotSent() throws Exception {
    SlowService.Impl slow = new SlowService.Impl();
    SlowService service = client(server(slow, 0), Duration.ofMinutes(1)).create(SlowService.class);
    RpcxContext served = RpcxContext.forCall("front", "work", null, null, Map.of(), "test");
    served.cancel("the test gave up");

    CancelledException e =
        assertThrows(CancelledException.class, () -> served.call(() -> service.poll(10)));
    assertEquals(
        "slow/poll was not sent: the call being served, front/work, was cancelled (the test gave"
            + " up)",
        e.getMessage());
    assertEquals(0, slow.started.get());
  }

  @Test
  void aCallCancelledBeforeItRunsNeverRuns() throws Exception {
    SlowService.Impl slow = new SlowService.Impl();
    RpcxClient client = client(server(slow, 1), Duration.ofMinutes(1));
    SlowService.Async service = client.create(SlowService.Async.class);
    CompletableFuture<String> busy = service.sleep(10_000); // the only worker
    await(() -> slow.running.get() == 1, "the worker to be busy");
    CompletableFuture<Boolean> queued = service.interruptedAtStart();
    Thread.sleep(100); // on its way, then queued behind the busy call

    queued.cancel(true);
    busy.cancel(true);
    await(() -> slow.running.get() == 0, "the busy call to stop");
    assertEquals(false, service.interruptedAtStart().get(10, TimeUnit.SECONDS));
    assertEquals(2, slow.started.get(), "the busy call and the last one; the cancelled one never ran");
  }

  @Test
  void anInterruptTheMethodLeftIsClearedBeforeTheThreadServesAnotherCall() throws Exception {
    SlowService.Impl slow = new SlowService.Impl();
    RpcxClient client = client(server(slow, 1), Duration.ofMinutes(1));
    SlowService.Async service = client.create(SlowService.Async.class);
    CompletableFuture<String> spinning = service.spin();
    await(() -> slow.running.get() == 1, "the call to run");
    spinning.cancel(true);
    await(() -> slow.running.get() == 0, "the call to stop");

    assertFalse(
        service.interruptedAtStart().get(10, TimeUnit.SECONDS),
        "the only worker thread serves the next call uninterrupted");
  }

  @Test
  void aClosedConnectionCancelsItsCalls() throws Exception {
    SlowService.Impl slow = new SlowService.Impl();
    RpcxServer server = server(slow, 0);
    RpcxClient client =
        RpcxClient.builder().target("127.0.0.1", server.port()).defaultTimeout(Duration.ofMinutes(1)).build();
    CompletableFuture<String> call = client.create(SlowService.Async.class).sleep(10_000);
    await(() -> slow.running.get() == 1, "the call to run");

    client.close();
    await(() -> slow.running.get() == 0, "the call to stop");
    assertEquals(List.of("the client's connection closed"), slow.interruptions);
    ExecutionException closed =
        assertThrows(ExecutionException.class, () -> call.get(5, TimeUnit.SECONDS));
    assertInstanceOf(UnavailableException.class, closed.getCause());
  }

  @Test
  void aStreamItsSubscriberCancelsCancelsTheServersCall() throws Exception {
    SlowService.Impl slow = new SlowService.Impl();
    RpcxClient client = client(server(slow, 0), Duration.ofMinutes(1));
    CountDownLatch cancelled = slow.streamCancelled;
    client
        .create(SlowService.class)
        .ticks()
        .subscribe(
            new Flow.Subscriber<Integer>() {
              private Flow.Subscription subscription;

              @Override
              public void onSubscribe(Flow.Subscription subscription) {
                this.subscription = subscription;
                subscription.request(3);
              }

              @Override
              public void onNext(Integer item) {
                if (item == 2) {
                  subscription.cancel();
                }
              }

              @Override
              public void onError(Throwable throwable) {}

              @Override
              public void onComplete() {}
            });
    assertTrue(cancelled.await(10, TimeUnit.SECONDS), "the server's context was cancelled");
  }

  private RpcxServer server(Object implementation, int workerThreads) {
    RpcxServer.Builder builder =
        RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(implementation);
    if (workerThreads > 0) {
      builder.workerThreads(workerThreads);
    }
    RpcxServer server = builder.shutdownGracePeriod(Duration.ofSeconds(1)).build().start();
    open.add(server::stop);
    return server;
  }

  private RpcxClient client(RpcxServer server, Duration timeout) {
    RpcxClient client =
        RpcxClient.builder().target("127.0.0.1", server.port()).defaultTimeout(timeout).build();
    open.add(client);
    return client;
  }

  /** Waits for {@code condition}, at most 5 s: a call not cancelled runs 10 s. */
  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("not within 5 s: " + what);
      }
      Thread.sleep(5);
    }
  }
}
