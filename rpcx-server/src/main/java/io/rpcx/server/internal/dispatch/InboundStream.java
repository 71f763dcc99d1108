package io.rpcx.server.internal.dispatch;

import com.google.protobuf.CodedInputStream;
import io.rpcx.core.BadRequestException;
import io.rpcx.core.CallTimeoutException;
import io.rpcx.core.CancelledException;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.RpcxContext;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.codec.Values;
import io.rpcx.core.internal.protocol.CreditWindow;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import io.rpcx.core.internal.transport.ReadArrivals;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's side of a stream argument (a client or bidirectional stream; docs/PROTOCOL.md,
 * section 5): the {@code Flow.Publisher} the implementation receives for its {@code
 * Flow.Publisher<T>} parameter, fed by the client's {@code STREAM_MESSAGE} frames.
 *
 * <p>Credit: the client's window starts at 0. Once the implementation's subscriber first requests
 * elements, the server grants {@code STREAM_CREDIT}, reading ahead of the subscriber as a
 * transport window does ({@link CreditWindow}): never more than {@code maxStreamWindow} messages
 * granted and not yet delivered, nor (counted at the largest message seen) {@code
 * maxStreamBufferedBytes}. A message beyond the window ends the call {@code RESOURCE_EXHAUSTED}.
 * Held messages stay undecoded in their received buffers, which count against the connection's
 * inbound budget until delivered.
 *
 * <p>Signals: one subscriber (a second gets {@code onError(IllegalStateException)}); every signal
 * comes from one drain loop run by one thread at a time on the server's executor (never the event
 * loop, unless the server runs implementations there), in the call's {@code RpcxContext}. The
 * client's {@code STREAM_END} becomes {@code onComplete} after the held messages; its {@code
 * STREAM_CANCEL}, a lost connection, the deadline or a shutdown become {@code onError} at once,
 * and so does the call ending while the stream is open.
 *
 * <p>Ending the call: RPCX ends it here ({@link #aborted()}) when the client cancels, the
 * connection is lost, the deadline passes, the server shuts down or the client breaks flow
 * control; for a bidirectional stream it ends the outbound {@link ServerStream} instead. Registered
 * with its connection from dispatch to the end of the call. Thread-safe.
 */
public final class InboundStream extends ReadArrivals.Receiver
    implements Flow.Publisher<Object>, Flow.Subscription {
  private static final Logger logger = LoggerFactory.getLogger(InboundStream.class);
  private static final Object COMPLETE = new Object();

  private final ServerConnection connection;
  private final ServerMethod method;
  private final int streamId;
  private final Executor executor;
  /** How far ahead of the subscriber credit goes. */
  private final CreditWindow window;
  private final int maxDepth;
  private final ValueCodec<Object> codec;
  private final Queue<Message> messages = new ConcurrentLinkedQueue<>();
  private final AtomicLong bufferedBytes = new AtomicLong();
  /** Elements the subscriber requested so far, cumulative, saturating at Long.MAX_VALUE. */
  private final AtomicLong requested = new AtomicLong();
  private final AtomicInteger wip = new AtomicInteger();
  private final Runnable drain = this::drain;
  private final AtomicReference<Flow.Subscriber<? super Object>> subscriber =
      new AtomicReference<>();
  private final CompletableFuture<Object> aborted = new CompletableFuture<>();
  private final AtomicBoolean endClaimed = new AtomicBoolean();
  /** The outbound stream of a bidirectional call, or {@code null}. */
  private volatile ServerStream outbound;
  private volatile RpcxContext context;
  /** {@link #COMPLETE} or the Throwable the subscriber gets. */
  private volatile Object terminal;
  /** Whether the terminal signal goes before the messages still held. */
  private volatile boolean terminalFirst;
  private volatile boolean cancelled;
  private volatile IllegalArgumentException badRequest;
  /** The call ended without a reply to send: the client cancelled or is gone. */
  private volatile boolean silent;
  /** Credit granted so far, cumulative; written by the drain only, read by the event loop. */
  private volatile long granted;
  /** Messages received; written by the event loop only. */
  private volatile long received;
  /** The client sent STREAM_END; event loop only. */
  private boolean clientEnded;
  private volatile Future<?> deadline;
  // The drain's own.
  private long delivered;
  private boolean subscribeSignalled;
  private boolean done;

  InboundStream(
      ServerConnection connection,
      ServerMethod method,
      int streamId,
      Executor executor,
      int window,
      long maxBufferedBytes,
      int maxDepth) {
    this.connection = connection;
    this.method = method;
    this.streamId = streamId;
    this.executor = executor;
    this.window = new CreditWindow(window, maxBufferedBytes, method.sizeHints());
    this.maxDepth = maxDepth;
    this.codec = method.model().streamElementCodec();
  }

  public int streamId() {
    return streamId;
  }

  /** The outbound stream of a bidirectional call, which RPCX ends instead of {@link #aborted()}. */
  void outbound(ServerStream stream) {
    this.outbound = stream;
  }

  /** The context the subscriber is signalled in: the call's. */
  void context(RpcxContext context) {
    this.context = context;
  }

  /**
   * Completes exceptionally when RPCX ends a client-stream call (not a bidirectional one) before
   * its implementation did; never completes normally.
   */
  CompletableFuture<Object> aborted() {
    return aborted;
  }

  /** Whether RPCX ended the call (cancel, deadline, shutdown, lost connection, flow control). */
  boolean isEnded() {
    return endClaimed.get();
  }

  /** Whether the call's end must not be sent: the client cancelled it, or is gone. */
  boolean isSilent() {
    return silent;
  }

  /** The messages received so far. */
  long received() {
    return received;
  }

  /** Ends the call {@code TIMEOUT} when its deadline passes, {@code delayNanos} from now. */
  void deadline(long delayNanos, int timeoutMillis) {
    deadline =
        connection.schedule(
            () ->
                abort(
                    StatusCode.TIMEOUT,
                    new CallTimeoutException(
                        method.model().displayName() + " timed out: the stream's deadline of "
                            + timeoutMillis + " ms passed"),
                    true),
            delayNanos);
  }

  // From the connection, on its event loop.

  /**
   * One element from the client; this stream then owns {@code payload}. It is handed on with the
   * others of the same read by {@link #messagesArrived}: returns whether it was kept.
   */
  public boolean message(ReplyEnvelope envelope, Payload payload) {
    if (clientEnded || terminal != null) {
      payload.release(); // after its end, or the call's: dropped
      return false;
    }
    long count = received + 1;
    received = count;
    long credit = granted;
    if (count > credit) {
      payload.release();
      abort(
          StatusCode.RESOURCE_EXHAUSTED,
          new ResourceExhaustedException(
              "the client sent " + count + " messages on a window of " + credit
                  + " on the stream argument of " + method.model().displayName()),
          true);
      return false;
    }
    if (cancelled) {
      payload.release(); // the subscriber wants no more
      return false;
    }
    int size = payload.length();
    window.received(size);
    bufferedBytes.addAndGet(size);
    messages.add(new Message(envelope, payload, size));
    return true;
  }

  /**
   * The messages of one read are all in (event loop): hands them on, once per read rather than once
   * per message.
   */
  @Override
  protected void messagesArrived() {
    signal();
  }

  /** The client's {@code STREAM_END}: it sends no more; the subscriber completes after the rest. */
  public void end() {
    if (clientEnded) {
      return;
    }
    clientEnded = true;
    synchronized (this) { // terminate() on another thread must not be overwritten
      if (terminal != null) {
        return;
      }
      terminalFirst = false;
      terminal = COMPLETE;
    }
    signal();
  }

  /** The client's {@code STREAM_CANCEL}: the call ends {@code CANCELLED}, nothing is sent. */
  public void cancelledByClient(String message) {
    abort(
        StatusCode.CANCELLED,
        new CancelledException(
            method.model().displayName() + " was cancelled by the client"
                + (message.isEmpty() ? "" : ": " + message),
            null),
        false);
  }

  /** The connection closed. */
  public void connectionLost() {
    abort(
        StatusCode.UNAVAILABLE,
        new UnavailableException(
            "the connection from " + connection.remoteAddress() + " closed while "
                + method.model().displayName() + " was streaming",
            false,
            null),
        false);
  }

  /** The server is shutting down and its grace period is over: ends the call UNAVAILABLE. */
  public void shutDown(String reason) {
    abort(
        StatusCode.UNAVAILABLE,
        new UnavailableException(
            reason + "; " + method.model().displayName() + " was ended", false, null),
        true);
  }

  /**
   * The call has ended (its reply was sent, or it was refused), with {@code failure} or null: a
   * subscriber still waiting gets {@code onError} (the failure if RPCX ended the call, else a
   * {@link CancelledException} saying the call ended), and messages held or still to come are
   * dropped.
   */
  void callEnded(Throwable failure) {
    closeTimer();
    if (terminal == null || !terminalFirst && terminal == COMPLETE && !messages.isEmpty()) {
      terminate(
          failure instanceof RpcxException
              ? failure
              : new CancelledException(
                  method.model().displayName() + " ended before its stream argument did", null));
    } else {
      signal(); // releases what is held
    }
  }

  /**
   * Ends the call because of RPCX, not the implementation: the subscriber gets {@code failure};
   * the call's end is sent ({@code REPLY} or {@code STREAM_END}) if {@code send}, else nothing.
   */
  private void abort(StatusCode code, RpcxException failure, boolean send) {
    if (!endClaimed.compareAndSet(false, true)) {
      return;
    }
    closeTimer();
    terminate(failure);
    ServerStream stream = outbound;
    if (stream != null) {
      stream.fail(code, failure, send);
    } else {
      silent = !send;
      aborted.completeExceptionally(failure);
    }
  }

  private void closeTimer() {
    Future<?> timer = deadline;
    if (timer != null) {
      timer.cancel(false);
    }
  }

  private void terminate(Throwable failure) {
    synchronized (this) { // pairs terminal with terminalFirst against end()
      terminalFirst = true;
      terminal = failure;
    }
    signal();
  }

  // The publisher the implementation subscribes to.

  @Override
  public void subscribe(Flow.Subscriber<? super Object> s) {
    Objects.requireNonNull(s, "subscriber"); // rule 1.9
    if (!subscriber.compareAndSet(null, s)) {
      run(
          () -> {
            s.onSubscribe(
                new Flow.Subscription() {
                  @Override
                  public void request(long n) {}

                  @Override
                  public void cancel() {}
                });
            s.onError(
                new IllegalStateException(
                    "the stream argument of " + method.model().displayName()
                        + " can be subscribed to once, and has a subscriber already"));
          });
      return;
    }
    signal();
  }

  @Override
  public void request(long n) {
    if (n <= 0) {
      badRequest =
          new IllegalArgumentException(
              "request(" + n + ") on the stream argument of " + method.model().displayName()
                  + ": n must be positive (Reactive Streams rule 3.9)");
    } else {
      requested.getAndAccumulate(
          n, (current, more) -> current + more < 0 ? Long.MAX_VALUE : current + more);
    }
    signal();
  }

  @Override
  public void cancel() {
    cancelled = true;
    signal();
  }

  // The drain loop.

  private void signal() {
    if (wip.getAndIncrement() == 0) {
      run(drain);
    }
  }

  /** Runs {@code task} on the server's executor; on the common pool if it refuses. */
  private void run(Runnable task) {
    if (executor == null) {
      task.run(); // the server runs implementations on its network threads
      return;
    }
    try {
      executor.execute(task);
    } catch (RejectedExecutionException e) {
      ForkJoinPool.commonPool().execute(task); // never the event loop
    }
  }

  private void drain() {
    int missed = 1;
    RpcxContext current = context;
    RpcxContext.Scope scope = current == null ? null : current.attach();
    try {
      while (true) {
        drainOnce();
        missed = wip.addAndGet(-missed);
        if (missed == 0) {
          return;
        }
      }
    } finally {
      if (scope != null) {
        scope.close();
      }
    }
  }

  private void drainOnce() {
    Flow.Subscriber<? super Object> s = subscriber.get();
    if (done || s == null) {
      if (done || terminal != null && terminalFirst) {
        releaseAll();
      }
      return;
    }
    if (!subscribeSignalled) {
      subscribeSignalled = true;
      try {
        s.onSubscribe(this);
      } catch (RuntimeException e) {
        logger.warn("onSubscribe of the stream argument of {} threw; cancelling",
            method.model().displayName(), e); // rule 2.13
        cancelled = true;
      }
    }
    if (cancelled) {
      done = true;
      releaseAll();
      return;
    }
    IllegalArgumentException bad = badRequest;
    if (bad != null) {
      done = true;
      cancelled = true;
      releaseAll();
      signalError(s, bad);
      return;
    }
    Object outcome = terminal;
    if (outcome != null && terminalFirst) {
      done = true;
      releaseAll();
      signalEnd(s, outcome);
      return;
    }
    long wanted = requested.get();
    Message message;
    while (delivered < wanted && !cancelled && (message = messages.poll()) != null) {
      bufferedBytes.addAndGet(-message.size);
      Object element;
      try {
        element = decode(message);
      } catch (BadRequestException e) {
        done = true;
        releaseAll();
        abort(StatusCode.BAD_REQUEST, e, true);
        signalError(s, e);
        return;
      }
      delivered++;
      try {
        s.onNext(element);
      } catch (RuntimeException e) {
        logger.warn(
            "onNext of the stream argument of {} threw; cancelling it",
            method.model().displayName(), e); // rule 2.13
        cancelled = true;
        done = true;
        releaseAll();
        return;
      }
      wanted = requested.get();
    }
    if (cancelled || badRequest != null) {
      return; // the next pass ends it
    }
    outcome = terminal;
    if (outcome != null) {
      if (messages.isEmpty() || terminalFirst) {
        done = true;
        releaseAll();
        signalEnd(s, outcome);
      }
      return;
    }
    grantCredit(wanted);
  }

  /**
   * Grants credit once the subscriber has requested anything (so never before the call was
   * accepted): then as far ahead of it as the window allows ({@link CreditWindow}).
   */
  private void grantCredit(long wanted) {
    if (granted == 0 && wanted <= 0) {
      return;
    }
    int more = window.more(granted, delivered, bufferedBytes.get());
    if (more <= 0) {
      return;
    }
    granted += more;
    connection.sendStreamCredit(streamId, more);
  }

  private Object decode(Message message) {
    try {
      CodedInputStream in = message.envelope.valueInput(message.payload);
      Object value =
          in == null
              ? null
              : Values.read(codec, in, new DecodeContext(maxDepth, connection.peerSchemas()));
      return value == null ? codec.absentValue() : value;
    } catch (Exception e) {
      return throwBadElement(e);
    } finally {
      message.payload.release();
    }
  }

  private Object throwBadElement(Exception e) {
    throw new BadRequestException(
        "cannot decode element " + (delivered + 1) + " of the stream argument of "
            + method.model().displayName() + ": " + e.getMessage(),
        e);
  }

  private void signalEnd(Flow.Subscriber<? super Object> s, Object outcome) {
    if (outcome == COMPLETE) {
      try {
        s.onComplete();
      } catch (RuntimeException e) {
        logger.warn("onComplete of the stream argument of {} threw", method.model().displayName(), e);
      }
    } else {
      signalError(s, (Throwable) outcome);
    }
  }

  private void signalError(Flow.Subscriber<? super Object> s, Throwable failure) {
    try {
      s.onError(failure);
    } catch (RuntimeException e) {
      logger.warn("onError of the stream argument of {} threw", method.model().displayName(), e);
    }
  }

  private void releaseAll() {
    Message message;
    while ((message = messages.poll()) != null) {
      bufferedBytes.addAndGet(-message.size);
      message.payload.release();
    }
  }

  /** A message received and not yet delivered. */
  private record Message(ReplyEnvelope envelope, Payload payload, int size) {}
}
