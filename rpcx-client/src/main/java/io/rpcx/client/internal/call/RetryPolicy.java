package io.rpcx.client.internal.call;

import io.rpcx.core.RpcxException;
import io.rpcx.core.UnavailableException;
import java.util.concurrent.atomic.LongAdder;

/**
 * Decides whether a failed call is sent again, to another server if there is one. A call is
 * retried only when all of these hold:
 *
 * <ul>
 *   <li>it failed as unavailable, not by a client interceptor's choice, and either certainly
 *       never ran ({@link UnavailableException#isSafeToRetry()}: never written, or refused by a
 *       server that was going away) or its method is idempotent (the connection was lost while it
 *       was in flight);
 *   <li>it has made fewer than {@code maxAttempts} attempts;
 *   <li>its deadline has not passed (all attempts share the call's one timeout);
 *   <li>some server could take it now (a lone server waiting to reconnect could not: its
 *       own failure then says more than a second one would);
 *   <li>the {@link RetryBudget} has a retry left.
 * </ul>
 *
 * A method that is not idempotent therefore never runs twice. Immutable and thread-safe.
 */
public final class RetryPolicy {
  private final int maxAttempts;
  private final RetryBudget budget;
  private final LongAdder retries = new LongAdder();

  public RetryPolicy(int maxAttempts, RetryBudget budget) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts: " + maxAttempts + " (expected: >= 1)");
    }
    this.maxAttempts = maxAttempts;
    this.budget = budget;
  }

  /** Counts a new call (its first attempt). */
  void called(long nowNanos) {
    budget.called(nowNanos);
  }

  /** Whether {@code attempt}, which failed with {@code failure}, is followed by another. */
  boolean mayRetry(PendingCall attempt, RpcxException failure, CallChannel channel) {
    if (!(failure instanceof UnavailableException) || attempt.refusedByInterceptor()) {
      return false;
    }
    if (!((UnavailableException) failure).isSafeToRetry() && !attempt.model().descriptor().isIdempotent()) {
      return false;
    }
    if (attempt.attempt() >= maxAttempts) {
      return false;
    }
    long now = System.nanoTime();
    if (attempt.deadlineNanos() - now > 0 && channel.hasUsableServer() && budget.tryRetry(now)) {
      retries.increment();
      return true;
    }
    return false;
  }

  /** Attempts allowed after a failure, so far. */
  public long retries() {
    return retries.sum();
  }
}
