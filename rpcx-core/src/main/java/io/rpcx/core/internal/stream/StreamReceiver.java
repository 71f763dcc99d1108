package io.rpcx.core.internal.stream;

import io.rpcx.core.RpcxContext;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.codec.ValueCodec;
import java.io.IOException;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receiving half of one stream, the same on both sides (docs/PROTOCOL.md, section 5): the
 * messages of a server stream on the client, and of a stream argument on the server. It is the
 * {@link Flow.Publisher} its one subscriber subscribes to and the {@link Flow.Subscription} it
 * holds; its {@link Side} (the client's call, or the server's call) sends credit and decodes.
 *
 * <p>Credit: nothing is granted until the subscriber first requests; then the receiver reads ahead
 * of its subscriber as a transport window does ({@link CreditWindow}): never more than the window
 * in messages granted and not yet delivered, nor (counted at the largest message seen) its byte
 * limit. A message beyond the credit is the sender breaking flow control ({@link Side#overrun}).
 * Held messages stay undecoded in their received buffers until delivered.
 *
 * <p>Signals: every signal to the subscriber comes from one drain loop run by one thread at a time
 * on the side's executor ({@link Side#execute}, never a network thread unless the server runs
 * calls there), in the {@linkplain #context context} set, so onNext is never concurrent and
 * onComplete or onError comes once. {@code onSubscribe} is signalled on the subscribing thread
 * when no drain runs, else by the drain. Messages arrive on the receiving thread (the event loop)
 * and are handed on once per read ({@link ReadArrivals}). The sender's end ({@link #finish})
 * reaches the subscriber after the messages held; a failure ({@link #fail}) before them.
 * Thread-safe.
 */
public final class StreamReceiver extends ReadArrivals.Receiver
    implements Flow.Publisher<Object>, Flow.Subscription {
  private static final Logger logger = LoggerFactory.getLogger(StreamReceiver.class);
  private static final Object COMPLETE = new Object();
  /** Where the subscriber was, once it has its end: nothing keeps it reachable then (rule 3.13). */
  private static final Flow.Subscriber<Object> DROPPED =
      new Flow.Subscriber<>() {
        @Override
        public void onSubscribe(Flow.Subscription subscription) {}

        @Override
        public void onNext(Object item) {}

        @Override
        public void onError(Throwable throwable) {}

        @Override
        public void onComplete() {}
      };

  private static final Flow.Subscription REFUSED =
      new Flow.Subscription() {
        @Override
        public void request(long n) {}

        @Override
        public void cancel() {}
      };

  /** A message received and held, undecoded, as its wire protocol frames it. */
  public interface Message {
    /** The bytes it holds, counted against the receiver's byte limit. */
    int size();

    /**
     * Decodes the element it carries with {@code codec} (null when absent) and releases its bytes.
     */
    Object decode(ValueCodec<Object> codec, DecodeContext context) throws IOException;

    /** Lets go of its bytes; once, when it is dropped instead of decoded. */
    void release();
  }

  /** What the side that owns a receiver does for it: send credit, decode, and end its call. */
  public interface Side {
    /** What the stream is, for messages: "the stream of orders/watch". */
    String description();

    /** Runs the drain loop (or the refusal of a second subscriber) off the network threads. */
    void execute(Runnable task);

    /**
     * Grants the first credit, once the subscriber first requests: the client sends its request
     * with {@code credit} as its initial credit, the server a {@code STREAM_CREDIT}.
     */
    void open(int credit);

    /** Grants {@code credit} more messages ({@code STREAM_CREDIT}). */
    void grant(int credit);

    /** Decodes {@code message} and releases its buffer; throws what the subscriber gets instead. */
    Object decode(Message message) throws Throwable;

    /**
     * The sender sent message number {@code received} on a credit of {@code granted}: it broke flow
     * control (the message was released).
     */
    void overrun(long received, long granted);

    /**
     * The subscriber cancelled ({@code reason} null), or the stream ends on the receiving side
     * because the subscriber broke the rules ({@code reason}: its {@code request(n <= 0)}).
     */
    void cancelled(Throwable reason);

    /** A message could not be decoded ({@code failure}, which the subscriber gets too). */
    void decodeFailed(Throwable failure);
  }

  private final Side side;
  /** How far ahead of the subscriber credit goes. */
  private final CreditWindow window;
  private final Queue<Message> messages = new ConcurrentLinkedQueue<>();
  private final AtomicLong bufferedBytes = new AtomicLong();
  /** Elements the subscriber requested so far, cumulative, saturating at Long.MAX_VALUE. */
  private final AtomicLong requested = new AtomicLong();
  private final AtomicInteger wip = new AtomicInteger();
  private final Runnable drain = this::drain;
  private final AtomicReference<Flow.Subscriber<? super Object>> subscriber =
      new AtomicReference<>();
  private volatile RpcxContext context;
  /** {@link #COMPLETE} or the Throwable the subscriber gets. */
  private volatile Object terminal;
  /** Whether the terminal signal goes before the messages still held. */
  private volatile boolean terminalFirst;
  private volatile boolean cancelled;
  private volatile IllegalArgumentException badRequest;
  /** Credit granted so far, cumulative; written by the drain only, read by the receiving thread. */
  private volatile long granted;
  /** Messages received; written by the receiving thread only. */
  private volatile long received;
  /** Bytes of the messages kept; written by the receiving thread only. */
  private volatile long receivedBytes;
  /** The sender ended its stream: later messages are dropped. Receiving thread only. */
  private boolean senderEnded;
  // The drain's own.
  private long delivered;
  private boolean opened;
  private boolean subscribeSignalled;
  private boolean done;

  /** A receiver whose credit {@code window} keeps ahead of its subscriber. */
  public StreamReceiver(Side side, CreditWindow window) {
    this.side = side;
    this.window = window;
  }

  /** The context the subscriber is signalled in (the call's, or the caller's); none by default. */
  public void context(RpcxContext context) {
    this.context = context;
  }

  /** The messages received so far. */
  public long received() {
    return received;
  }

  /** The bytes of the messages received and kept so far. */
  public int receivedBytes() {
    return (int) Math.min(Integer.MAX_VALUE, receivedBytes);
  }

  // From the receiving thread (the event loop).

  /**
   * One message from the sender; the receiver then owns it. Returns whether it was kept: then it is
   * handed on with the others of the same read ({@link ReadArrivals#add}).
   */
  public boolean message(Message message) {
    if (senderEnded || terminal != null) {
      message.release(); // after the stream's end: dropped
      return false;
    }
    long count = received + 1;
    received = count;
    long credit = granted;
    if (count > credit) {
      message.release();
      side.overrun(count, credit);
      return false;
    }
    if (cancelled) {
      message.release(); // the subscriber wants no more
      return false;
    }
    int size = message.size();
    receivedBytes += size;
    window.received(size);
    bufferedBytes.addAndGet(size);
    messages.add(message);
    return true;
  }

  /** The messages of one read are all in: hands them on, once per read. */
  @Override
  protected void messagesArrived() {
    signal();
  }

  /**
   * The sender ended its stream: the subscriber gets {@code failure}, or completes if it is null,
   * after the messages held. Ignored if the stream has its end already.
   */
  public void finish(Throwable failure) {
    senderEnded = true;
    synchronized (this) { // a fail() on another thread must not be overwritten
      if (terminal != null) {
        return;
      }
      terminalFirst = false;
      terminal = failure == null ? COMPLETE : failure;
    }
    signal();
  }

  /** Ends the stream at once: the subscriber gets {@code failure} before any message still held. */
  public void fail(Throwable failure) {
    synchronized (this) { // pairs terminal with terminalFirst against finish()
      terminalFirst = true;
      terminal = failure;
    }
    signal();
  }

  /**
   * The call the stream belongs to has ended: a subscriber that has not been given its end, or is
   * still to take messages before completing, gets {@code failure} at once; what is held or still
   * comes is dropped.
   */
  public void failIfOpen(Throwable failure) {
    Object outcome = terminal;
    if (outcome == null || !terminalFirst && outcome == COMPLETE && !messages.isEmpty()) {
      fail(failure);
    } else {
      signal(); // releases what is held
    }
  }

  // Flow.Publisher, for the one subscriber.

  @Override
  public void subscribe(Flow.Subscriber<? super Object> s) {
    Objects.requireNonNull(s, "subscriber"); // rule 1.9
    if (!subscriber.compareAndSet(null, s)) {
      side.execute(
          () -> {
            s.onSubscribe(REFUSED);
            s.onError(
                new IllegalStateException(
                    side.description() + " can be subscribed to once, and has a subscriber"
                        + " already"));
          });
      return;
    }
    if (wip.getAndIncrement() == 0) {
      // No drain runs: onSubscribe on the subscribing thread, the rest on the executor.
      signalSubscribe(s);
      side.execute(drain);
    }
  }

  // Flow.Subscription, for the subscriber.

  @Override
  public void request(long n) {
    if (n <= 0) {
      badRequest =
          new IllegalArgumentException(
              "request(" + n + ") on " + side.description()
                  + ": n must be positive (Reactive Streams rule 3.9)");
    } else {
      requested.getAndAccumulate(
          n, (current, more) -> current + more < 0 ? Long.MAX_VALUE : current + more);
    }
    signal();
  }

  @Override
  public void cancel() {
    if (cancelled) {
      return;
    }
    cancelled = true;
    side.cancelled(null);
    signal();
  }

  // The drain loop.

  private void signal() {
    if (wip.getAndIncrement() == 0) {
      side.execute(drain);
    }
  }

  private void drain() {
    int missed = 1;
    RpcxContext current = context;
    RpcxContext.Scope scope =
        current == null || current == RpcxContext.ROOT ? null : current.attach();
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
    if (done) {
      releaseAll();
      return;
    }
    Flow.Subscriber<? super Object> s = subscriber.get();
    if (s == null) {
      if (terminal != null && terminalFirst) {
        releaseAll();
      }
      return;
    }
    if (!subscribeSignalled) {
      signalSubscribe(s);
    }
    if (cancelled) {
      over();
      return;
    }
    IllegalArgumentException bad = badRequest;
    if (bad != null) {
      cancelled = true;
      over();
      side.cancelled(bad);
      signalError(s, bad);
      return;
    }
    Object outcome = terminal;
    if (outcome != null && terminalFirst) {
      over();
      signalEnd(s, outcome);
      return;
    }
    long wanted = requested.get();
    Message message;
    while (delivered < wanted && !cancelled && (message = messages.poll()) != null) {
      bufferedBytes.addAndGet(-message.size());
      Object element;
      try {
        element = side.decode(message);
      } catch (Throwable t) {
        over();
        side.decodeFailed(t);
        signalError(s, t);
        return;
      }
      delivered++;
      try {
        s.onNext(element);
      } catch (RuntimeException e) {
        logger.warn("onNext of {} threw; cancelling it", side.description(), e); // rule 2.13
        cancel();
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
        over();
        signalEnd(s, outcome);
      }
      return;
    }
    grantCredit(wanted);
  }

  /**
   * The subscriber has (or is about to get) its last signal: nothing more is delivered, what is
   * held is released, and the subscriber is let go of (a cancelled subscriber must become
   * unreachable, rule 3.13); a later subscriber is still refused.
   */
  private void over() {
    done = true;
    subscriber.set(DROPPED);
    releaseAll();
  }

  /**
   * Grants credit once the subscriber has requested anything: then as far ahead of it as the
   * window allows ({@link CreditWindow}), whatever it requested.
   */
  private void grantCredit(long wanted) {
    if (!opened) {
      if (wanted <= 0) {
        return;
      }
      opened = true;
      int first = window.more(granted, delivered, bufferedBytes.get());
      granted += first;
      side.open(first);
      return;
    }
    int more = window.more(granted, delivered, bufferedBytes.get());
    if (more > 0) {
      granted += more;
      side.grant(more);
    }
  }

  private void signalSubscribe(Flow.Subscriber<? super Object> s) {
    subscribeSignalled = true;
    try {
      s.onSubscribe(this);
    } catch (RuntimeException e) {
      logger.warn("onSubscribe of {} threw; cancelling it", side.description(), e); // rule 2.13
      cancelled = true; // nothing was requested, so nothing was sent: nothing to tell the sender
    }
  }

  private void signalEnd(Flow.Subscriber<? super Object> s, Object outcome) {
    if (outcome == COMPLETE) {
      try {
        s.onComplete();
      } catch (RuntimeException e) {
        logger.warn("onComplete of {} threw", side.description(), e);
      }
    } else {
      signalError(s, (Throwable) outcome);
    }
  }

  private void signalError(Flow.Subscriber<? super Object> s, Throwable failure) {
    try {
      s.onError(failure);
    } catch (RuntimeException e) {
      logger.warn("onError of {} threw", side.description(), e);
    }
  }

  private void releaseAll() {
    Message message;
    while ((message = messages.poll()) != null) {
      bufferedBytes.addAndGet(-message.size());
      message.release();
    }
  }
}
