package io.rpcx.core.internal.stream;

import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sending half of one stream, the same on both sides (docs/PROTOCOL.md, section 5): the
 * subscriber of a publisher whose elements go to the peer, the caller's stream argument on the
 * client and the implementation's result on the server. It asks the publisher for no more elements
 * than the peer's credit ({@code STREAM_CREDIT}), so it never sends beyond it nor holds more than
 * the window, and has its {@link Side} send each element; what the publisher does (completes,
 * fails, emits more than requested) and what cannot be sent (an element over the frame limit or
 * that cannot be encoded) it reports to its side, which ends the call. Once closed, by its side or
 * by the publisher's end, it sends nothing more and the publisher is cancelled unless it ended
 * itself.
 *
 * <p>Threads: credit arrives on the event loop and is passed upstream ({@code request(n)}) on the
 * side's executor, never on a network thread (or on the subscribing thread, in {@code
 * onSubscribe}); elements are sent on the thread that emits them. Thread-safe.
 */
public final class StreamSender implements Flow.Subscriber<Object> {
  private static final Logger logger = LoggerFactory.getLogger(StreamSender.class);

  /** What the side that owns a sender does for it: send, and end its call. */
  public interface Side {
    /** What the publisher is, for messages: "the stream argument of files/upload". */
    String description();

    /** Runs {@code request(n)} on the publisher off the network threads. */
    void execute(Runnable task);

    /**
     * Encodes and sends {@code element}, message number {@code number} of the stream.
     *
     * @return false, sending nothing, if it is over the frame limit
     * @throws Exception if it cannot be encoded; nothing was sent
     */
    boolean send(long number, Object element) throws Exception;

    /** The publisher completed: every element was sent. */
    void completed();

    /**
     * The publisher failed with {@code error}, or broke its contract (an {@link
     * IllegalStateException} saying how): the sender is closed.
     */
    void failed(Throwable error);

    /**
     * Element {@code number} could not be sent: over the frame limit ({@code problem} null) or not
     * encodable ({@code problem}); the publisher was cancelled and the sender closed.
     */
    void refused(long number, Exception problem);
  }

  private final Side side;
  /** Credit the peer granted so far, cumulative, saturating. */
  private final AtomicLong credit;
  /** Elements requested from the publisher so far, cumulative; written under {@link #pumpLock}. */
  private final AtomicLong requested = new AtomicLong();
  private final AtomicBoolean pumping = new AtomicBoolean();
  private final Object pumpLock = new Object();
  private final Runnable pump = this::pump;
  private volatile Flow.Subscription subscription;
  /** The stream is over: the publisher ended, or the side closed it. */
  private volatile boolean closed;
  /** The publisher signalled its end (onComplete or onError): nothing to cancel. */
  private volatile boolean publisherDone;
  /** Elements sent; written by the publisher's (serialized) signals. */
  private volatile long sent;

  /** A sender that may send {@code initialCredit} messages (unsigned) before any credit comes. */
  public StreamSender(Side side, int initialCredit) {
    this.side = side;
    this.credit = new AtomicLong(Integer.toUnsignedLong(initialCredit));
  }

  /**
   * Subscribes to {@code publisher}. If the sender was closed already, the publisher is subscribed
   * and cancelled at once.
   */
  public void start(Flow.Publisher<Object> publisher) {
    try {
      publisher.subscribe(this);
    } catch (RuntimeException e) {
      onError(e); // rule 1.9 says subscribe must not throw: as if it failed
    }
  }

  /** The messages sent so far. */
  public long sent() {
    return sent;
  }

  /** The peer may take {@code messages} more (unsigned); on the event loop. */
  public void credit(int messages) {
    credit.getAndAccumulate(
        Integer.toUnsignedLong(messages),
        (now, more) -> now + more < 0 ? Long.MAX_VALUE : now + more);
    if (subscription != null && !closed && pumping.compareAndSet(false, true)) {
      side.execute(pump);
    }
  }

  /**
   * The stream is over (the call ended, the peer cancelled, a deadline passed): nothing more is
   * sent, and the publisher is cancelled unless it has ended itself. Idempotent.
   */
  public void close() {
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
        logger.warn("Cancelling {} failed", side.description(), e);
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

  // The subscriber of the publisher.

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    if (this.subscription != null) {
      subscription.cancel(); // rule 2.5: one subscription at a time
      return;
    }
    this.subscription = subscription;
    if (closed) {
      cancelUpstream(); // closed before the publisher subscribed: it may not start
      return;
    }
    pump();
  }

  @Override
  public void onNext(Object item) {
    if (closed) {
      return;
    }
    long number = sent + 1;
    if (number > requested.get()) {
      closed = true;
      cancelUpstream();
      side.failed(
          new IllegalStateException(
              side.description() + " emitted more elements than requested ("
                  + requested.get() + ")"));
      return;
    }
    sent = number;
    Exception problem;
    try {
      if (side.send(number, item)) {
        return;
      }
      problem = null;
    } catch (Exception e) {
      problem = e;
    }
    closed = true;
    cancelUpstream();
    side.refused(number, problem);
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
    closed = true;
    side.failed(throwable);
  }

  @Override
  public void onComplete() {
    publisherDone = true;
    if (closed) {
      return;
    }
    closed = true;
    side.completed();
  }
}
