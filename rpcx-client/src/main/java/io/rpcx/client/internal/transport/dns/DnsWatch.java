package io.rpcx.client.internal.transport.dns;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.core.discovery.ServiceEndpoint;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Looks one {@link DnsTarget} up again and again and tells every listener the servers after each
 * change: when the records' TTL runs out, at the latest after the refresh interval, and soon
 * after a client lost a connection to one of the servers ({@link #refresh()}), never twice within
 * the minimum interval. A failed lookup, or an answer with no record, keeps the last good list:
 * the problem is logged once and told to the listeners, and the lookup is tried again. All state
 * lives on one event loop.
 */
public final class DnsWatch implements AutoCloseable {
  private static final Logger logger = LoggerFactory.getLogger(DnsWatch.class);

  private final DnsTarget target;
  private final DnsLookup lookup;
  private final EventLoop loop;
  private final long maxIntervalNanos;
  private final long minIntervalNanos;
  private final List<ServiceDiscovery.Listener> listeners = new CopyOnWriteArrayList<>();
  private final CompletableFuture<Void> firstOutcome = new CompletableFuture<>();
  // Event loop only:
  private List<ServiceEndpoint> delivered;
  private String problem;
  private boolean inFlight;
  private boolean refreshAsked;
  private long lastLookupNanos;
  private ScheduledFuture<?> next;
  private long nextAtNanos;
  private boolean closed;

  public DnsWatch(
      DnsTarget target, DnsLookup lookup, EventLoop loop, long maxIntervalNanos, long minIntervalNanos) {
    this.target = target;
    this.lookup = lookup;
    this.loop = loop;
    this.maxIntervalNanos = maxIntervalNanos;
    this.minIntervalNanos = minIntervalNanos;
  }

  /** Starts looking up. */
  public void start() {
    loop.execute(this::lookUp);
  }

  /** Waits up to {@code timeoutMillis} for the first answer or failure. */
  public void awaitFirstLookup(long timeoutMillis) {
    try {
      firstOutcome.get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      loop.execute(() -> report("DNS did not answer the lookup of " + target.describe() + " within "
          + timeoutMillis + " ms"));
    } catch (ExecutionException e) {
      throw new IllegalStateException(e); // never completed exceptionally
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Adds {@code listener}; it gets the current list and problem, if any, before this returns. */
  public void add(ServiceDiscovery.Listener listener) {
    CompletableFuture<Void> added = new CompletableFuture<>();
    loop.execute(
        () -> {
          listeners.add(listener);
          if (delivered != null) {
            deliver(listener, delivered);
          }
          if (problem != null) {
            listener.onProblem(problem);
          }
          added.complete(null);
        });
    added.join();
  }

  /** Removes {@code listener}. */
  public void remove(ServiceDiscovery.Listener listener) {
    listeners.remove(listener);
  }

  /** A client lost a connection to a server of this target: look again soon. */
  public void refresh() {
    loop.execute(
        () -> {
          if (closed) {
            return;
          }
          if (inFlight) {
            refreshAsked = true; // once this lookup is answered
            return;
          }
          long earliest = lastLookupNanos + minIntervalNanos;
          schedule(Math.max(0, earliest - System.nanoTime()));
        });
  }

  /** Schedules the next lookup in {@code delayNanos}, unless one is due sooner already. */
  private void schedule(long delayNanos) {
    long at = System.nanoTime() + delayNanos;
    if (next != null) {
      if (nextAtNanos - at <= 0) {
        return;
      }
      next.cancel(false);
    }
    nextAtNanos = at;
    next = loop.schedule(this::lookUp, delayNanos, TimeUnit.NANOSECONDS);
  }

  private void lookUp() {
    if (closed || inFlight) {
      return;
    }
    next = null;
    inFlight = true;
    refreshAsked = false;
    lastLookupNanos = System.nanoTime();
    lookup.lookup(target).whenComplete((answer, failure) -> loop.execute(() -> answered(answer, failure)));
  }

  private void answered(DnsLookup.Answer answer, Throwable failure) {
    inFlight = false;
    if (closed) {
      return;
    }
    long delay;
    if (failure != null) {
      Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
          ? failure.getCause()
          : failure;
      report(cause.getMessage() != null ? cause.getMessage() : cause.toString());
      // Tried again soon, as a failed connection would ask anyway: at most every minimum interval.
      delay = Math.min(maxIntervalNanos, Math.max(minIntervalNanos, TimeUnit.SECONDS.toNanos(5)));
    } else {
      if (problem != null) {
        logger.info("DNS answers the lookup of {} again", target.describe());
        problem = null;
      }
      if (!answer.endpoints().equals(delivered)) {
        delivered = answer.endpoints();
        logger.debug("{} lists {}", target.describe(), delivered);
        for (ServiceDiscovery.Listener listener : listeners) {
          deliver(listener, delivered);
        }
      }
      delay =
          Math.min(maxIntervalNanos, Math.max(minIntervalNanos, TimeUnit.SECONDS.toNanos(answer.ttlSeconds())));
    }
    firstOutcome.complete(null);
    if (refreshAsked) {
      delay = minIntervalNanos;
    }
    schedule(delay);
  }

  private void report(String found) {
    if (found.equals(problem)) {
      return;
    }
    problem = found;
    logger.warn(
        "{}{}",
        found,
        delivered == null ? "" : "; keeping the " + delivered.size() + " servers known");
    for (ServiceDiscovery.Listener listener : listeners) {
      try {
        listener.onProblem(found);
      } catch (RuntimeException e) {
        logger.error("A listener of {} failed", target.describe(), e);
      }
    }
  }

  private void deliver(ServiceDiscovery.Listener listener, List<ServiceEndpoint> endpoints) {
    try {
      listener.onEndpoints(endpoints);
    } catch (RuntimeException e) {
      logger.error("A listener of {} failed on {}", target.describe(), endpoints, e);
    }
  }

  @Override
  public void close() {
    loop.execute(
        () -> {
          closed = true;
          if (next != null) {
            next.cancel(false);
          }
        });
  }

  @Override
  public String toString() {
    return "DNS lookups of " + target.describe();
  }
}
