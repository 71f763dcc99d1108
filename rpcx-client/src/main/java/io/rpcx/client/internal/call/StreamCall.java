package io.rpcx.client.internal.call;

import io.rpcx.core.CancelledException;
import io.rpcx.core.InternalErrorException;
import io.rpcx.core.RpcxContext;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.protocol.CreditWindow;
import io.rpcx.core.internal.protocol.Failures;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import io.rpcx.core.internal.protocol.StreamFrames;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One call of a server-stream (or bidirectional) method, for one subscriber (docs/PROTOCOL.md, section 5): the {@link
 * Flow.Subscription} its subscriber holds, and the attempt the connection keeps among its pending
 * calls until the stream ends. Never retried.
 *
 * <p>Credit: the request is sent when the subscriber first requests, granting {@code
 * initial_credit}; then {@code STREAM_CREDIT} as messages are delivered, reading ahead of the
 * subscriber as a transport window does ({@link CreditWindow}): the credit not yet used plus the
 * messages received and not yet delivered never exceed the client's {@code maxStreamWindow}, nor
 * (counted at the largest message seen) its {@code maxStreamBufferedBytes}: the server never has
 * more than that in flight, however fast its publisher and however slow the subscriber.
 *
 * <p>A bidirectional stream also has an {@link Upload} of its stream argument, started once the
 * request is sent and ended with the call.
 *
 * <p>Signals: every signal to the subscriber comes from one drain loop, run by one thread at a time
 * on the client's callback executor (never on a network thread), so onNext is never concurrent,
 * and onComplete or onError comes once. Messages arrive on the event loop and wait, undecoded, in a
 * queue; the drain decodes each as it delivers it. Thread-safe.
 */
final class StreamCall extends PendingCall implements Flow.Subscription {
  private static final Logger logger = LoggerFactory.getLogger(StreamCall.class);


  private static final Object COMPLETE = new Object();

  private final Flow.Subscriber<? super Object> subscriber;
  private final boolean hasDeadline;
  /** How far ahead of the subscriber credit goes: {@code maxStreamWindow}, {@code maxStreamBufferedBytes}. */
  private final CreditWindow window;
  /** The upload of a bidirectional stream's argument, or {@code null}. */
  private final Upload upload;
  private final AtomicInteger wip = new AtomicInteger();
  private final Runnable drain = this::drain;
  private final Queue<Message> messages = new ConcurrentLinkedQueue<>();
  /** Elements the subscriber requested so far, cumulative, saturating at Long.MAX_VALUE. */
  private final AtomicLong requested = new AtomicLong();
  private final AtomicLong bufferedBytes = new AtomicLong();
  private volatile boolean cancelled;
  private volatile IllegalArgumentException badRequest;
  /** {@link #COMPLETE} or the Throwable the subscriber gets; set once the call is finished. */
  private volatile Object terminal;
  /** Whether the terminal signal goes before the messages still held (a local failure). */
  private volatile boolean terminalFirst;
  /** Credit granted so far, cumulative; written by the drain only, read by the event loop. */
  private volatile long granted;
  private int initialCredit;
  /** The connection the request went to, published by the drain for a cancel from any thread. */
  private volatile CallOwner sentOn;
  // The drain's own.
  private long delivered;
  private boolean requestSent;
  private boolean done;
  /** Messages received; written by the event loop only, read by interceptors. */
  private volatile long received;

  StreamCall(ClientMethod method, Invocation invocation, Flow.Subscriber<? super Object> subscriber) {
    super(method, invocation, 1, null);
    this.subscriber = subscriber;
    this.hasDeadline = invocation.inherited() || method.timeoutMillis() > 0;
    this.window =
        new CreditWindow(
            method.maxStreamWindow(), method.maxStreamBufferedBytes(), method.sizeHints());
    this.upload = model().hasStreamArgument() ? Upload.attach(this) : null;
  }

  /** Hands the subscriber its subscription; the request goes out when it first requests. */
  void subscribe() {
    wip.set(1); // the drain waits until onSubscribe has returned (rule 1.3)
    try {
      subscriber.onSubscribe(this);
    } catch (RuntimeException e) {
      logger.warn("onSubscribe of {} threw; cancelling", model().displayName(), e); // rule 2.13
      cancelled = true;
    }
    method.completions().run(drain);
  }

  @Override
  public boolean needsTimer() {
    return hasDeadline;
  }

  @Override
  public long streamMessagesReceived() {
    return received;
  }

  @Override
  int initialCredit() {
    return initialCredit;
  }

  // Flow.Subscription, for the subscriber.

  @Override
  public void request(long n) {
    if (n <= 0) {
      badRequest =
          new IllegalArgumentException(
              "request(" + n + ") on the stream of " + model().displayName()
                  + ": n must be positive (Reactive Streams rule 3.9)");
    } else {
      requested.getAndAccumulate(n, (current, more) -> current + more < 0 ? Long.MAX_VALUE : current + more);
    }
    signal();
  }

  @Override
  public void cancel() {
    if (cancelled) {
      return;
    }
    cancelled = true;
    cancelCall(
        new CancelledException(model().displayName() + " was cancelled by its subscriber", null));
    signal();
  }

  /** Ends the call as cancelled and tells the server, once; nothing if it has ended already. */
  private void cancelCall(RpcxException why) {
    if (finish()) {
      ended(CallOutcome.OTHER, null, why);
      abandonStream();
    }
  }

  private void abandonStream() {
    CallOwner current = sentOn;
    if (current != null) {
      current.cancelStream(this, "");
    }
  }

  // From the connection.

  @Override
  public boolean streamMessage(ReplyEnvelope envelope, Payload payload) {
    if (isFinished()) {
      payload.release();
      return true;
    }
    received++;
    long credit = granted;
    if (received > credit) {
      payload.release();
      fail(
          new InternalErrorException(
              "the server at " + address() + " sent " + received + " messages on a window of "
                  + credit + " on the stream of " + model().displayName(),
              null));
      abandonStream();
      return true;
    }
    int size = payload.length();
    countResponseBytes(size);
    window.received(size);
    bufferedBytes.addAndGet(size);
    messages.add(new Message(envelope, payload, size)); // handed on by streamMessagesArrived
    return true;
  }

  @Override
  public void streamMessagesArrived() {
    signal();
  }

  @Override
  public boolean streamEnd(StreamFrames end) {
    Object outcome;
    if (end.errorCode() == StatusCode.TIMEOUT) {
      // The server's timer and the client's fire together: the subscriber gets the same either way.
      outcome = method.timeoutException(this);
    } else if (end.isError()) {
      try {
        outcome = method.failure(end.errorCode(), end.message(), end.exceptionClass(), address());
      } catch (Throwable t) {
        outcome = t;
      }
    } else {
      outcome = COMPLETE;
    }
    if (finish()) {
      ended(
          CallOutcome.REPLIED,
          null,
          outcome instanceof RpcxException
              ? (RpcxException) outcome
              : end.isError()
                  ? Failures.of(end.errorCode(), end.message(), end.exceptionClass())
                  : null);
      terminate(outcome, false);
    }
    return true;
  }

  @Override
  void onReply(ReplyEnvelope envelope, Payload payload) {
    Object outcome;
    try {
      method.decode(envelope, payload, peerSchemas(), address()); // throws what an error stands for
      outcome =
          new InternalErrorException(
              "the server at " + address() + " answered the stream " + model().displayName()
                  + " with a REPLY carrying a value",
              null);
    } catch (Throwable t) {
      outcome = t; // a refusal before the stream started
    }
    terminate(outcome, true);
  }

  @Override
  void onFailure(RpcxException failure) {
    terminate(failure, true);
  }

  @Override
  void onArgumentFailure(Throwable error) {
    terminate(error, true);
  }

  @Override
  void onTimeout() {
    terminate(method.timeoutException(this), true);
  }

  private void terminate(Object outcome, boolean first) {
    terminalFirst = first;
    terminal = outcome;
    signal();
  }

  // The drain loop.

  private void signal() {
    if (wip.getAndIncrement() == 0) {
      method.completions().run(drain);
    }
  }

  private void drain() {
    int missed = 1;
    RpcxContext caller = invocation().caller();
    RpcxContext.Scope scope = caller == RpcxContext.ROOT ? null : caller.attach();
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
    if (done || cancelled) {
      done = true;
      releaseAll();
      return;
    }
    IllegalArgumentException bad = badRequest;
    if (bad != null) {
      done = true;
      cancelCall(new CancelledException(bad.getMessage(), bad));
      releaseAll();
      signalError(bad);
      return;
    }
    Object outcome = terminal;
    if (outcome != null && terminalFirst) {
      done = true;
      releaseAll();
      signalEnd(outcome);
      return;
    }
    long wanted = requested.get();
    Message message;
    while (delivered < wanted && !cancelled && (message = messages.poll()) != null) {
      bufferedBytes.addAndGet(-message.size);
      Object element;
      try {
        element = method.decode(message.envelope, message.payload, peerSchemas(), address());
      } catch (Throwable t) {
        done = true;
        cancelCall(new CancelledException(String.valueOf(t.getMessage()), t));
        releaseAll();
        signalError(t);
        return;
      }
      delivered++;
      try {
        subscriber.onNext(element);
      } catch (RuntimeException e) {
        logger.warn("onNext of {} threw; cancelling the stream", model().displayName(), e);
        cancel(); // rule 2.13
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
        signalEnd(outcome);
      }
      return;
    }
    grantCredit(wanted);
  }

  /**
   * Grants credit once the subscriber has requested anything: then as far ahead of it as the
   * window allows ({@link CreditWindow}), whatever it requested.
   */
  private void grantCredit(long wanted) {
    if (!requestSent) {
      if (wanted <= 0) {
        return; // the call is sent on the subscriber's first request
      }
      requestSent = true;
      initialCredit = window.more(granted, delivered, bufferedBytes.get());
      granted += initialCredit;
      send();
      return;
    }
    int more = window.more(granted, delivered, bufferedBytes.get());
    if (more <= 0) {
      return;
    }
    granted += more;
    CallOwner current = sentOn;
    if (current != null) {
      current.sendCredit(this, more);
    }
  }

  private void send() {
    if (remainingNanos() <= 0) {
      timeOut();
      if (upload != null) {
        upload.start(null);
      }
      return;
    }
    try {
      method.channel().send(this);
    } catch (RpcxException e) {
      fail(e);
      if (upload != null) {
        upload.start(null);
      }
      return;
    }
    sentOn = owner();
    if (upload != null) {
      upload.start(sentOn); // a bidirectional stream: its argument goes up as the server grants
    }
    if (cancelled) {
      abandonStream(); // cancelled while it was being sent: tell the server, which may have it
    }
  }

  private void signalEnd(Object outcome) {
    if (outcome == COMPLETE) {
      try {
        subscriber.onComplete();
      } catch (RuntimeException e) {
        logger.warn("onComplete of {} threw", model().displayName(), e);
      }
    } else {
      signalError((Throwable) outcome);
    }
  }

  private void signalError(Throwable failure) {
    try {
      subscriber.onError(failure);
    } catch (RuntimeException e) {
      logger.warn("onError of {} threw", model().displayName(), e);
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
