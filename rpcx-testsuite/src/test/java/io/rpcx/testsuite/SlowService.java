package io.rpcx.testsuite;

import io.rpcx.annotation.InterruptOnCancel;
import io.rpcx.annotation.Method;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.core.RpcxContext;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Calls that take long, to be cancelled: one that sleeps and opts in to interrupts, one that
 * checks its context, one that calls another server meanwhile, and a stream without end. The
 * implementation counts the calls running and records why each was cancelled.
 */
@RPCXClient(name = "slow")
public interface SlowService {

  /** Sleeps {@code millis} unless interrupted; says whether it was. */
  @InterruptOnCancel
  String sleep(int millis);

  /** Works for {@code millis} in steps of 5 ms, checking its context between steps. */
  String poll(int millis);

  /** Calls {@code sleep(millis)} on the server its relay client points to. */
  String relay(int millis);

  /** Spins until its call is cancelled, leaving the interrupt it gets unconsumed. */
  @InterruptOnCancel
  String spin();

  /** Whether the serving thread is interrupted as the call starts. */
  boolean interruptedAtStart();

  /** Integers until the subscriber cancels. */
  Flow.Publisher<Integer> ticks();

  /** The same service, called asynchronously. */
  @RPCXClient(name = "slow")
  interface Async {
    @Method("sleep")
    CompletableFuture<String> sleep(int millis);

    @Method("relay")
    CompletableFuture<String> relay(int millis);

    @Method("spin")
    CompletableFuture<String> spin();

    @Method("interruptedAtStart")
    CompletableFuture<Boolean> interruptedAtStart();
  }

  /** The implementation: counts, and records what cancelled each call. */
  @RPCXServer(name = "slow")
  final class Impl implements SlowService {
    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger started = new AtomicInteger();
    final List<String> cancellations = new CopyOnWriteArrayList<>();
    final List<String> interruptions = new CopyOnWriteArrayList<>();
    volatile CountDownLatch streamCancelled = new CountDownLatch(1);
    private volatile SlowService relayTo;

    /** Where {@link #relay} calls. */
    void relayTo(SlowService next) {
      this.relayTo = next;
    }

    @Override
    public String sleep(int millis) {
      enter();
      try {
        Thread.sleep(millis);
        return "slept";
      } catch (InterruptedException e) {
        interruptions.add(RpcxContext.current().cancellationReason().orElse("?"));
        return "interrupted";
      } finally {
        leave();
      }
    }

    @Override
    public String poll(int millis) {
      enter();
      try {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < end) {
          if (RpcxContext.current().isCancelled()) {
            return "stopped";
          }
          try {
            Thread.sleep(5);
          } catch (InterruptedException e) {
            interruptions.add("poll was interrupted, without opting in");
            return "interrupted";
          }
        }
        return "done";
      } finally {
        leave();
      }
    }

    @Override
    public String relay(int millis) {
      enter();
      try {
        return relayTo.sleep(millis);
      } finally {
        leave();
      }
    }

    @Override
    public String spin() {
      enter();
      try {
        while (!RpcxContext.current().isCancelled()) {
          LockSupport.parkNanos(1_000_000); // returns at once once interrupted, leaving the flag
        }
        return Thread.currentThread().isInterrupted() ? "interrupted" : "not interrupted";
      } finally {
        leave();
      }
    }

    @Override
    public boolean interruptedAtStart() {
      started.incrementAndGet();
      return Thread.currentThread().isInterrupted();
    }

    @Override
    public Flow.Publisher<Integer> ticks() {
      RpcxContext.current().onCancel(() -> streamCancelled.countDown());
      return subscriber ->
          subscriber.onSubscribe(
              new Flow.Subscription() {
                private int next;

                @Override
                public synchronized void request(long n) {
                  for (long i = 0; i < n; i++) {
                    subscriber.onNext(next++);
                  }
                }

                @Override
                public void cancel() {}
              });
    }

    private void enter() {
      started.incrementAndGet();
      running.incrementAndGet();
      RpcxContext call = RpcxContext.current();
      call.onCancel(() -> cancellations.add(call.cancellationReason().orElse("")));
    }

    private void leave() {
      running.decrementAndGet();
    }
  }
}
