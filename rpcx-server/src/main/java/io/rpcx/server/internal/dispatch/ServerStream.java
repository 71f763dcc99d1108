package io.rpcx.server.internal.dispatch;

import io.rpcx.core.CallTimeoutException;
import io.rpcx.core.CancelledException;
import io.rpcx.core.InternalErrorException;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.internal.codec.CodecException;
import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's side of one server stream (docs/PROTOCOL.md, section 5): subscribes to the
 * implementation's publisher, asks it for no more elements than the client's credit (so it never
 * sends beyond it, and never holds more than the window), sends each element as a {@code
 * STREAM_MESSAGE}, and ends the stream once: {@code STREAM_END} when the publisher completes or
 * fails, when the deadline passes or the server shuts down; nothing when the client cancelled or the
 * connection is gone. Registered with its connection from the moment its request is dispatched, so
 * that credit and a cancel arriving before the call runs are not lost. Thread-safe: credit and
 * cancel come from the event loop, elements from the publisher's threads.
 *
 * <p>{@link #ended()} completes when the stream ends, with null or the failure the call ends with:
 * the call's interceptors see it as the end of one call.
 */
public final class ServerStream implements Flow.Subscriber<Object> {
  private static final Logger logger = LoggerFactory.getLogger(ServerStream.class);

  private final ServerConnection connection;
  private final ServerMethod method;
  private final int streamId;
  private final Executor executor;
  private final StreamOutput output;
  private final CompletableFuture<Object> ended = new CompletableFuture<>();
  /** Credit granted by the client so far, cumulative. */
  private final AtomicLong credit;
  /** Credit not yet passed upstream is being passed by a task. */
  private final AtomicBoolean pumping = new AtomicBoolean();
  private final AtomicBoolean endClaimed = new AtomicBoolean();
  private final Object pumpLock = new Object();
  private volatile Flow.Subscription subscription;
  private volatile boolean started;
  /** Elements requested from the publisher so far; under pumpLock. */
  private long requested;
  /** Elements sent; written under this stream's monitor. */
  private volatile long sent;
  private volatile Future<?> deadline;
  /**
   * The stream's end was sent, or must not be (the client is gone); under this stream's monitor,
   * which also orders each message before the end.
   */
  private boolean endWritten;
  /** Run before RPCX's own failure end is sent (set by the call, once, before the stream starts). */
  private volatile Runnable beforeFailureEnd = () -> {};

  /** A stream of {@code method} for request {@code streamId}, with the request's initial credit. */
  ServerStream(
      ServerConnection connection,
      ServerMethod method,
      int streamId,
      int initialCredit,
      Executor executor) {
    this.connection = connection;
    this.method = method;
    this.streamId = streamId;
    this.executor = executor;
    this.output = connection.streamOutput(streamId, method);
    this.credit = new AtomicLong(Integer.toUnsignedLong(initialCredit));
  }

  public int streamId() {
    return streamId;
  }

  /** Completes when the stream has ended, however it did; see the class comment. */
  CompletableFuture<Object> ended() {
    return ended;
  }

  /** Whether the implementation's publisher was obtained: from then on the stream ends with STREAM_END. */
  boolean started() {
    return started;
  }

  /** The messages sent so far. */
  long sent() {
    return sent;
  }

  /** Whether the stream has ended (or been cancelled). */
  boolean isEnded() {
    return endClaimed.get();
  }

  /** Times the stream out at its deadline, {@code delayNanos} from now. */
  void deadline(long delayNanos, int timeoutMillis) {
    deadline =
        connection.schedule(
            () ->
                fail(
                    StatusCode.TIMEOUT,
                    new CallTimeoutException(
                        method.model().displayName() + " timed out: the stream's deadline of "
                            + timeoutMillis + " ms passed"),
                    true),
            delayNanos);
  }

  /**
   * Subscribes to what the implementation returned: a {@code Flow.Publisher}, or a {@code Stream}
   * read as the client's credit allows.
   */
  @SuppressWarnings("unchecked")
  void start(Object result) {
    started = true;
    Flow.Publisher<Object> publisher =
        result instanceof Stream
            ? new StreamPublisher((Stream<Object>) result)
            : (Flow.Publisher<Object>) result;
    try {
      publisher.subscribe(this);
    } catch (RuntimeException e) {
      onError(e);
    }
  }

  // From the connection, on its event loop.

  /** The client may take {@code messages} more (unsigned). */
  public void credit(int messages) {
    credit.addAndGet(Integer.toUnsignedLong(messages));
    if (subscription == null || !pumping.compareAndSet(false, true)) {
      return;
    }
    Runnable pump =
        () -> {
          pumping.set(false);
          pump();
        };
    if (executor == null) {
      pump.run();
      return;
    }
    try {
      executor.execute(pump);
    } catch (RejectedExecutionException e) {
      pump.run();
    }
  }

  /** The client cancelled the call: the publisher is cancelled, and nothing more is sent. */
  public void cancelledByClient(String message) {
    fail(
        StatusCode.CANCELLED,
        new CancelledException(
            method.model().displayName() + " was cancelled by the client"
                + (message.isEmpty() ? "" : ": " + message),
            null),
        false);
  }

  /** The connection closed: the publisher is cancelled. */
  public void connectionLost() {
    fail(
        StatusCode.UNAVAILABLE,
        new UnavailableException(
            "the connection from " + connection.remoteAddress() + " closed while "
                + method.model().displayName() + " was streaming",
            false,
            null),
        false);
  }

  /** The server is shutting down and its grace period is over: ends the stream UNAVAILABLE. */
  public void shutDown(String reason) {
    fail(
        StatusCode.UNAVAILABLE,
        new UnavailableException(
            reason + "; " + method.model().displayName() + " was ended", false, null),
        true);
  }

  /** Lets go of the stream's timer; the call is over. */
  void close() {
    Future<?> timer = deadline;
    if (timer != null) {
      timer.cancel(false);
    }
  }

  // The subscriber of the implementation's publisher.

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    if (this.subscription != null || isEnded()) {
      subscription.cancel(); // a second subscription, or one arriving after the end (rule 2.5)
      return;
    }
    this.subscription = subscription;
    if (isEnded()) {
      cancelUpstream(); // ended since the check above: fail() may have found no subscription yet
      return;
    }
    pump();
  }

  @Override
  public void onNext(Object item) {
    synchronized (this) {
      if (isEnded()) {
        return;
      }
      if (sent >= credit.get()) {
        failPublisher(
            new IllegalStateException(
                "the publisher of " + method.model().displayName() + " emitted more elements than"
                    + " requested (" + requested + ")"));
        return;
      }
      sent++;
      try {
        if (!output.message(item)) {
          fail(
              StatusCode.RESOURCE_EXHAUSTED,
              new ResourceExhaustedException(
                  method.model().displayName() + ": an element is over the frame limit"),
              true);
        }
      } catch (CodecException | RuntimeException e) {
        String problem =
            method.model().displayName() + " ran, but an element of its stream could not be"
                + " encoded: " + (e instanceof CodecException ? e.getMessage() : e.toString());
        logger.warn("{} (for {})", problem, connection.remoteAddress());
        fail(StatusCode.INTERNAL, new InternalErrorException(problem, e), true);
      }
    }
  }

  @Override
  public void onError(Throwable throwable) {
    if (throwable == null) {
      throwable = new NullPointerException("onError(null)"); // rule 2.13
    }
    // The call's end (STREAM_END REMOTE_FAILURE, logged like an implementation's exception) is
    // sent by the ServerCall the future completes.
    if (endClaimed.compareAndSet(false, true)) {
      close();
      ended.completeExceptionally(new ServerCall.ImplementationFailure(throwable));
    }
  }

  @Override
  public void onComplete() {
    if (endClaimed.compareAndSet(false, true)) {
      close();
      ended.complete(null);
    }
  }

  /**
   * Sends the stream's end, once: OK when {@code code} is null. Called by the {@link ServerCall}
   * when the call it ran ends; nothing is sent if the stream has been ended otherwise already.
   */
  void end(StatusCode code, String message, String exceptionClass) {
    synchronized (this) {
      endClaimed.set(true);
      if (!endWritten) {
        endWritten = true;
        output.end(code, message, exceptionClass);
      }
    }
  }

  private void failPublisher(IllegalStateException problem) {
    cancelUpstream();
    if (endClaimed.compareAndSet(false, true)) {
      close();
      ended.completeExceptionally(new ServerCall.ImplementationFailure(problem));
    }
  }

  /**
   * Runs just before RPCX ends the stream with a failure of its own ({@link #fail}): the call
   * gives its place under the connection's limit back before the client can read the end.
   */
  void beforeFailureEnd(Runnable hook) {
    this.beforeFailureEnd = hook;
  }

  /**
   * Ends the stream because of RPCX, not the publisher: cancels the publisher, sends {@code
   * STREAM_END} with {@code failure} if {@code sendEnd} (else nothing more: the client is gone),
   * and ends the call with it.
   */
  void fail(StatusCode code, RpcxException failure, boolean sendEnd) {
    if (!endClaimed.compareAndSet(false, true)) {
      return;
    }
    close();
    cancelUpstream();
    synchronized (this) {
      if (!endWritten) {
        endWritten = true;
        if (sendEnd) {
          beforeFailureEnd.run();
          output.end(code, String.valueOf(failure.getMessage()), "");
        }
      }
    }
    ended.completeExceptionally(failure);
  }

  private void cancelUpstream() {
    Flow.Subscription current = subscription;
    if (current != null) {
      try {
        current.cancel();
      } catch (RuntimeException e) {
        logger.warn("Cancelling the publisher of {} failed", method.model().displayName(), e);
      }
    }
  }

  /** Asks the publisher for what the client's credit allows and was not asked for yet. */
  private void pump() {
    Flow.Subscription current = subscription;
    if (current == null) {
      return;
    }
    synchronized (pumpLock) {
      long granted = credit.get();
      if (granted <= requested || isEnded()) {
        return;
      }
      long more = granted - requested;
      requested = granted;
      try {
        current.request(more);
      } catch (RuntimeException e) {
        onError(e); // rule 3.16 says request must not throw: treat it as the publisher failing
      }
    }
  }

  /**
   * A {@code Stream} returned by an implementation, read on the thread that passes credit on, no
   * further than requested. Only this stream subscribes to it, once.
   */
  private static final class StreamPublisher implements Flow.Publisher<Object>, Flow.Subscription {
    private final Stream<Object> stream;
    private final Iterator<Object> iterator;
    private final AtomicLong demand = new AtomicLong();
    private volatile boolean cancelled;
    private Flow.Subscriber<? super Object> subscriber;

    StreamPublisher(Stream<Object> stream) {
      this.stream = stream;
      this.iterator = stream.iterator();
    }

    @Override
    public void subscribe(Flow.Subscriber<? super Object> subscriber) {
      this.subscriber = subscriber;
      subscriber.onSubscribe(this);
    }

    @Override
    public void request(long n) {
      if (n <= 0) {
        cancel();
        subscriber.onError(new IllegalArgumentException("request(" + n + "): n must be positive"));
        return;
      }
      if (demand.getAndAdd(n) != 0) {
        return; // the thread emitting now takes it
      }
      long emitted = 0;
      while (true) {
        long wanted = demand.get();
        while (emitted < wanted) {
          if (cancelled) {
            return;
          }
          boolean more;
          Object next;
          try {
            more = iterator.hasNext();
            next = more ? iterator.next() : null;
          } catch (RuntimeException e) {
            cancel();
            subscriber.onError(e);
            return;
          }
          if (!more) {
            cancel();
            subscriber.onComplete();
            return;
          }
          subscriber.onNext(next);
          emitted++;
        }
        if (demand.addAndGet(-emitted) == 0) {
          return;
        }
        emitted = 0;
      }
    }

    @Override
    public void cancel() {
      if (!cancelled) {
        cancelled = true;
        stream.close();
      }
    }
  }
}
