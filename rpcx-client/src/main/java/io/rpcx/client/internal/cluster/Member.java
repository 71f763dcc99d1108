package io.rpcx.client.internal.cluster;

import io.rpcx.client.EndpointStatus.State;
import io.rpcx.client.internal.call.CallOutcome;
import io.rpcx.client.internal.call.CallRoute;
import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.client.internal.call.ServerLink;
import io.rpcx.client.internal.config.Ejection;
import io.rpcx.client.internal.transport.Backoff;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One server as the balancers of a client see it, shared by every service it serves: its channel,
 * the calls in flight on it, and its health.
 *
 * <p>Health: after {@link Ejection#consecutiveFailures()} calls in a row that could not reach it or
 * timed out, the server is <em>ejected</em>: balancers give it no call while another server may
 * take one. It stays out at least its ejection time (a jittered backoff that grows when a server
 * is ejected again soon after it came back). From the moment it is ejected it is probed in the
 * background, never with a caller's call: a fresh connection, the RPCX handshake and a PING,
 * about every {@link Ejection#probeIntervalMillis()} (±20%). The first probe answered after the
 * ejection time brings it back, with the probe's connection ready for the next call. So a server
 * that was killed and restarted takes calls again within about one probe interval of being ready
 * (RestartTest). A server
 * whose channel waits to reconnect is skipped too. Thread-safe; the per-call path touches two
 * atomic counters.
 */
public final class Member implements CallRoute {
  private static final Logger logger = LoggerFactory.getLogger(Member.class);

  private final String address;
  private final ServerLink channel;
  private final Ejection ejection;
  private final ScheduledExecutorService scheduler;
  private final Backoff backoff;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final LongAdder started = new LongAdder();
  /** Counts the ejections of every member of the client. */
  private final LongAdder ejections;
  private final AtomicInteger consecutiveFailures = new AtomicInteger();
  /** Whether the member is out of rotation; read on every pick. */
  private volatile boolean ejected;
  private volatile long ejectedUntilNanos;
  /** When it last came back, to tell a flapping server from one that failed once. */
  private long recoveredAtNanos = System.nanoTime() - TimeUnit.DAYS.toNanos(1);
  /** Whether a probe is scheduled or in flight. */
  private final AtomicBoolean probing = new AtomicBoolean();
  private volatile boolean retired;
  /** Clusters that list this member; guarded by {@link Members}. */
  int references;
  /** The same clusters, told when its connection is lost; changed under {@link Members}' lock. */
  final List<ServiceCluster> clusters = new CopyOnWriteArrayList<>();

  Member(
      String address,
      ServerLink channel,
      Ejection ejection,
      ScheduledExecutorService scheduler,
      LongAdder ejections) {
    this.address = address;
    this.ejections = ejections;
    this.channel = channel;
    this.ejection = ejection;
    this.scheduler = scheduler;
    this.backoff = new Backoff(ejection.initialMillis(), ejection.maxMillis());
  }

  @Override
  public String address() {
    return address;
  }

  ServerLink channel() {
    return channel;
  }

  /** Whether a balancer may give this member a call now. */
  boolean isEligible(long nowNanos) {
    return !ejected && channel.acceptsCalls();
  }

  public int inFlight() {
    return inFlight.get();
  }

  /** Takes {@code call} if this member is in rotation; false, taking nothing, while it is ejected. */
  boolean tryStart(PendingCall call, long nowNanos) {
    if (ejected) {
      return false;
    }
    start(call);
    return true;
  }

  /** Takes {@code call} whatever its health: no member could take it, and it is sent here. */
  void start(PendingCall call) {
    inFlight.incrementAndGet();
    started.increment();
    call.route(this);
  }

  @Override
  public void ended(PendingCall call, CallOutcome outcome) {
    inFlight.decrementAndGet();
    switch (outcome) {
      case REPLIED:
        if (consecutiveFailures.get() != 0) {
          consecutiveFailures.set(0);
        }
        break;
      case UNAVAILABLE:
      case TIMED_OUT:
        if (consecutiveFailures.incrementAndGet() >= ejection.consecutiveFailures()) {
          eject();
        }
        break;
      default:
        break;
    }
  }

  private void eject() {
    long delay;
    synchronized (this) {
      if (ejected || retired) {
        return; // already out; the calls that were in flight when it failed end here
      }
      long now = System.nanoTime();
      if (now - recoveredAtNanos > TimeUnit.MILLISECONDS.toNanos(ejection.maxMillis())) {
        backoff.reset(); // it stayed in rotation long enough: not flapping
      }
      delay = backoff.nextDelayNanos();
      ejectedUntilNanos = now + delay;
      ejected = true;
    }
    ejections.increment();
    logger.warn(
        "Ejecting {} for at least {} ms after {} failed calls in a row; probing it in the"
            + " background",
        address,
        TimeUnit.NANOSECONDS.toMillis(delay),
        consecutiveFailures.get());
    if (probing.compareAndSet(false, true)) {
      scheduleProbe(probeInterval());
    }
  }

  /** The interval between probes, ±20%. */
  private long probeInterval() {
    long base = TimeUnit.MILLISECONDS.toNanos(ejection.probeIntervalMillis());
    return (long) (base * (0.8 + 0.4 * ThreadLocalRandom.current().nextDouble()));
  }

  private void scheduleProbe(long delayNanos) {
    try {
      scheduler.schedule(this::probe, delayNanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      probing.set(false); // the client is closing
    }
  }

  /** Probes the ejected server once, then decides: back in rotation, or another probe later. */
  private void probe() {
    if (retired || !ejected) {
      probing.set(false);
      return;
    }
    channel.probe().whenComplete(
        (ignored, failure) -> {
          if (retired || !ejected) {
            probing.set(false);
          } else if (failure != null) {
            logger.debug("Probe of {} failed: {}", address, failure.toString());
            scheduleProbe(probeInterval());
          } else {
            long wait = ejectedUntilNanos - System.nanoTime();
            if (wait > 0) {
              scheduleProbe(wait); // answers, but its ejection time is not over
            } else {
              probing.set(false);
              recovered();
            }
          }
        });
  }

  private void recovered() {
    synchronized (this) {
      if (!ejected) {
        return;
      }
      consecutiveFailures.set(0);
      recoveredAtNanos = System.nanoTime();
      ejected = false;
    }
    logger.info("{} answers probes again and is back in rotation", address);
  }

  /**
   * The server was announced again (restarted, or re-registered): forget its failures and let the
   * next call connect at once.
   */
  synchronized void announcedAgain() {
    consecutiveFailures.set(0);
    ejected = false;
    backoff.reset();
    channel.reconnectNow();
  }

  /**
   * A connection in use was lost or went away, or an attempt to connect failed: the clusters that
   * list this server ask their discovery to look again, as the server may be gone or replaced.
   */
  void disconnected() {
    if (retired) {
      return;
    }
    for (ServiceCluster cluster : clusters) {
      cluster.serverDisconnected(this);
    }
  }

  /** No cluster lists the member any more: stop probing it. */
  void retire() {
    retired = true;
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
