package io.rpcx.client.internal.call;

import io.rpcx.core.BadRequestException;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.RpcxException;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's side of a stream argument (a client or bidirectional stream; docs/PROTOCOL.md,
 * section 5): subscribes to the caller's {@code Flow.Publisher} once the request is sent, asks it
 * for no more elements than the server's credit ({@code STREAM_CREDIT}), and sends each element as
 * a {@code STREAM_MESSAGE}, its completion as {@code STREAM_END}. The publisher's {@code onError}
 * becomes {@code STREAM_CANCEL} with the error's text, and the call fails with that error itself;
 * a publisher emitting more than requested fails the call with an {@link IllegalStateException}.
 * When the call ends first (its reply or {@code STREAM_END}, a deadline, a cancel, a lost
 * connection), the subscription to the caller's publisher is cancelled.
 *
 * <p>Threads: credit arrives on the event loop and is passed upstream ({@code request(n)}) on the
 * client's callback executor, never on a network thread; elements are encoded on the thread that
 * emits them and queued behind the request. Thread-safe.
 */
final class Upload implements Flow.Subscriber<Object> {
  private static final Logger logger = LoggerFactory.getLogger(Upload.class);

  private final PendingCall call;
  private final Flow.Publisher<Object> publisher;
  private volatile CallOwner owner;
  /** Credit the server granted so far, cumulative, saturating. */
  private final AtomicLong credit = new AtomicLong();
  /** Elements requested from the publisher so far, cumulative; written under {@link #pumpLock}. */
  private final AtomicLong requested = new AtomicLong();
  private final AtomicBoolean pumping = new AtomicBoolean();
  private final Object pumpLock = new Object();
  private final Runnable pump = this::pump;
  private volatile Flow.Subscription subscription;
  /** The upload is over: the publisher ended, failed, or the call ended. */
  private volatile boolean closed;
  /** The publisher signalled its end (onComplete or onError): nothing to cancel. */
  private volatile boolean publisherDone;
  /** Elements sent; written by the publisher's (serialized) signals. */
  private volatile long sent;

  private Upload(PendingCall call, Flow.Publisher<Object> publisher) {
    this.call = call;
    this.publisher = publisher;
  }

  /**
   * The upload of {@code call}'s stream argument, attached to the call before it is sent (credit
   * may come before {@link #start} runs).
   */
  @SuppressWarnings("unchecked")
  static Upload attach(PendingCall call) {
    int index = call.model().streamParameterIndex();
    Upload upload = new Upload(call, (Flow.Publisher<Object>) call.args()[index]);
    call.upload(upload);
    return upload;
  }

  /**
   * Subscribes to the caller's publisher, the call having been sent on {@code owner}; if it was
   * not sent ({@code owner} is null), nothing. If the call has ended already, the publisher is
   * subscribed and cancelled at once.
   */
  void start(CallOwner owner) {
    if (owner == null) {
      closed = true;
      return;
    }
    this.owner = owner;
    if (call.isFinished()) {
      closed = true;
    }
    try {
      publisher.subscribe(this);
    } catch (RuntimeException e) {
      onError(e); // rule 1.9 says subscribe must not throw: as if it failed
    }
  }

  /** The messages sent so far. */
  long sent() {
    return sent;
  }

  /** On the event loop: the server may take {@code messages} more (unsigned). */
  void credit(int messages) {
    credit.getAndAccumulate(
        Integer.toUnsignedLong(messages), (now, more) -> now + more < 0 ? Long.MAX_VALUE : now + more);
    if (subscription != null && !closed && pumping.compareAndSet(false, true)) {
      call.method.completions().run(pump);
    }
  }

  /** The call has ended (any way): the publisher is cancelled unless it has ended itself. */
  void callEnded() {
    if (closed) {
      return;
    }
    closed = true;
    cancelUpstream();
  }

  private void cancelUpstream() {
    Flow.Subscription current = subscription;
    if (current != null && !publisherDone) {
      try {
        current.cancel();
      } catch (RuntimeException e) {
        logger.warn("Cancelling the stream argument of {} failed", call.model().displayName(), e);
      }
    }
  }

  /** Asks the publisher for what the credit allows and was not asked for yet; one at a time. */
  private void pump() {
    pumping.set(false);
    Flow.Subscription current = subscription;
    if (current == null) {
      return;
    }
    synchronized (pumpLock) { // request(n) calls are serial (rule 2.7)
      long more = credit.get() - requested.get();
      if (more <= 0 || closed) {
        return;
      }
      requested.addAndGet(more);
      try {
        current.request(more);
      } catch (RuntimeException e) {
        onError(e); // rule 3.16: request must not throw; as if the publisher failed
      }
    }
  }

  // The subscriber of the caller's publisher.

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    if (this.subscription != null) {
      subscription.cancel(); // rule 2.5: one subscription at a time
      return;
    }
    this.subscription = subscription;
    if (closed) {
      cancelUpstream();
    } else if (credit.get() > 0 && pumping.compareAndSet(false, true)) {
      call.method.completions().run(pump);
    }
  }

  @Override
  public void onNext(Object item) {
    if (closed) {
      return;
    }
    long number = sent + 1;
    if (number > requested.get()) {
      fail(
          new IllegalStateException(
              "the stream argument of " + call.model().displayName() + " emitted more elements"
                  + " than requested (" + requested.get() + ")"),
          null);
      return;
    }
    sent = number;
    try {
      if (!owner.sendStreamMessage(call, item)) {
        fail(
            null,
            new ResourceExhaustedException(
                "element " + number + " of the stream argument of " + call.model().displayName()
                    + " is over the frame limit"));
      }
    } catch (Exception e) {
      fail(
          null,
          new BadRequestException(
              "cannot encode element " + number + " of the stream argument of "
                  + call.model().displayName() + ": " + e.getMessage(),
              e));
    }
  }

  @Override
  public void onError(Throwable throwable) {
    if (throwable == null) {
      throwable = new NullPointerException("onError(null)"); // rule 2.13
    }
    publisherDone = true;
    if (closed) {
      return;
    }
    fail(throwable, null);
  }

  @Override
  public void onComplete() {
    publisherDone = true;
    if (closed) {
      return;
    }
    closed = true;
    owner.sendStreamEnd(call);
  }

  /**
   * Ends the upload and the call: with the caller's own {@code error} (the publisher's failure),
   * or with {@code failure}, a problem RPCX found; the server gets {@code STREAM_CANCEL}.
   */
  private void fail(Throwable error, RpcxException failure) {
    if (closed) {
      return;
    }
    closed = true;
    cancelUpstream();
    Throwable cause = error != null ? error : failure;
    String text = String.valueOf(cause.getMessage() == null ? cause : cause.getMessage());
    if (error != null) {
      call.failFromArgument(error);
    } else {
      call.fail(failure);
    }
    owner.cancelStream(call, text);
  }
}
