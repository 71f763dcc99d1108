package io.rpcx.client.internal.cluster;

import io.rpcx.client.internal.call.CallOutcome;
import io.rpcx.client.internal.call.CallRoute;
import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.client.internal.call.ServerChannel;
import io.rpcx.client.internal.transport.Backoff;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One server as the balancers of a client see it, shared by every service it serves: its channel,
 * the calls in flight on it, and its health.
 *
 * <p>Health: after {@link Ejection#consecutiveFailures} calls in a row that could not reach it or
 * timed out, the server is <em>ejected</em> for a jittered backoff; when that ends it is
 * <em>probing</em>: one call at a time is its probe, until a probe is answered, which brings it
 * back, or fails, which ejects it again for longer. Replies to calls sent before it was ejected do
 * not bring it back. A server whose channel waits to reconnect is skipped
 * too. Thread-safe; the per-call path touches two atomic counters.
 */
public final class Member implements CallRoute {
  private static final Logger logger = LoggerFactory.getLogger(Member.class);

  /** Health, as {@link #state(long)} reports it. */
  public enum State {
    AVAILABLE,
    UNREACHABLE,
    EJECTED,
    PROBING
  }

  private final String address;
  private final ServerChannel channel;
  private final Ejection ejection;
  private final Backoff backoff;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final LongAdder started = new LongAdder();
  private final AtomicInteger consecutiveFailures = new AtomicInteger();
  /** Whether the member was ejected and has not answered a probe since; read on every pick. */
  private volatile boolean ejected;
  private volatile long ejectedUntilNanos;
  /** The call probing an ejected member, or {@code null}. */
  private final AtomicReference<PendingCall> probe = new AtomicReference<>();
  /** Clusters that list this member; guarded by {@link Members}. */
  int references;

  Member(String address, ServerChannel channel, Ejection ejection) {
    this.address = address;
    this.channel = channel;
    this.ejection = ejection;
    this.backoff = new Backoff(ejection.initialMillis, ejection.maxMillis);
  }

  @Override
  public String address() {
    return address;
  }

  ServerChannel channel() {
    return channel;
  }

  /**
   * Whether a balancer may give this member a call now. Many callers may see an ejected member's
   * probe free at once; {@link #tryStart} lets only one of them in.
   */
  boolean isEligible(long nowNanos) {
    if (ejected) {
      // Probing: one call at a time once the ejection time is over.
      return nowNanos - ejectedUntilNanos >= 0 && probe.get() == null && channel.acceptsCalls();
    }
    return channel.acceptsCalls();
  }

  public int inFlight() {
    return inFlight.get();
  }

  /**
   * Takes {@code call} if this member may have it now: always while it is in rotation; while it is
   * ejected only as its probe, which needs the ejection time to be over and no other probe in
   * flight. Returns false, taking nothing, when the ejection is not over, another caller won the
   * probe, or a failed probe ejected the member again meanwhile.
   */
  boolean tryStart(PendingCall call, long nowNanos) {
    if (ejected && !(nowNanos - ejectedUntilNanos >= 0 && claimProbe(call, nowNanos))) {
      return false;
    }
    begin(call);
    return true;
  }

  /**
   * Takes {@code call} whatever its health: no member could take it, and it is sent here to fail
   * fast. It becomes the probe if it may.
   */
  void start(PendingCall call) {
    long now = System.nanoTime();
    if (ejected && now - ejectedUntilNanos >= 0) {
      claimProbe(call, now);
    }
    begin(call);
  }

  /**
   * Makes {@code call} the probe of this member, whose ejection time looked over at {@code
   * nowNanos}. False if another call is the probe, or the member was ejected again between that
   * look and the claim (a failed probe ejects before it lets go). True too, the call then being
   * an ordinary one, if the member came back meanwhile.
   */
  private boolean claimProbe(PendingCall call, long nowNanos) {
    if (!probe.compareAndSet(null, call)) {
      return false;
    }
    if (!ejected) {
      probe.compareAndSet(call, null); // back in rotation: nothing to probe
      return true;
    }
    if (nowNanos - ejectedUntilNanos < 0) {
      probe.compareAndSet(call, null);
      return false;
    }
    return true;
  }

  private void begin(PendingCall call) {
    inFlight.incrementAndGet();
    started.increment();
    call.route(this);
  }

  @Override
  public void ended(PendingCall call, CallOutcome outcome) {
    inFlight.decrementAndGet();
    boolean wasProbe = probe.get() == call;
    switch (outcome) {
      case REPLIED:
        if (consecutiveFailures.get() != 0) {
          consecutiveFailures.set(0);
        }
        // Only the probe brings an ejected member back, not a late reply to an older call.
        if (wasProbe) {
          recovered();
        }
        break;
      case UNAVAILABLE:
      case TIMED_OUT:
        if (consecutiveFailures.incrementAndGet() >= ejection.consecutiveFailures || wasProbe) {
          eject();
        }
        break;
      default:
        break;
    }
    if (wasProbe) {
      // Only now, once a failed probe has ejected the member again: freed earlier, the probe
      // could go to another call that still sees the old ejection over.
      probe.compareAndSet(call, null);
    }
  }

  private synchronized void eject() {
    long now = System.nanoTime();
    if (ejected && now - ejectedUntilNanos < 0) {
      return; // already out; the calls that were in flight when it failed end here
    }
    long delay = backoff.nextDelayNanos();
    ejectedUntilNanos = now + delay;
    ejected = true;
    logger.warn(
        "Ejecting {} for {} ms after {} failed calls in a row",
        address,
        TimeUnit.NANOSECONDS.toMillis(delay),
        consecutiveFailures.get());
  }

  private synchronized void recovered() {
    if (ejected) {
      ejected = false;
      backoff.reset();
      logger.info("{} answers again and is back in rotation", address);
    }
  }

  /**
   * The server was announced again (restarted, or re-registered): forget its failures and let the
   * next call connect at once.
   */
  synchronized void announcedAgain() {
    consecutiveFailures.set(0);
    ejected = false;
    probe.set(null);
    backoff.reset();
    channel.reconnectNow();
  }

  public State state(long nowNanos) {
    if (!channel.acceptsCalls()) {
      return State.UNREACHABLE;
    }
    if (ejected) {
      return nowNanos - ejectedUntilNanos >= 0 ? State.PROBING : State.EJECTED;
    }
    return State.AVAILABLE;
  }

  public long callsStarted() {
    return started.sum();
  }

  public int consecutiveFailures() {
    return consecutiveFailures.get();
  }

  @Override
  public String toString() {
    return address;
  }
}
