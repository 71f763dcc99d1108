package io.rpcx.testing.internal;

import io.rpcx.core.StatusCode;
import io.rpcx.core.RpcxException;
import io.rpcx.server.CallInfo;
import io.rpcx.server.ServerInterceptor;
import io.rpcx.server.internal.dispatch.ReplyFault;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The faults of one server run: the first interceptor of the server, and asked by the server what
 * becomes of each reply ({@link ReplyFault}). Counts the calls answered, for the reset. Thread-safe.
 */
public final class FaultInterceptor implements ServerInterceptor, ReplyFault {

  /** What a rule does. */
  public enum Kind {
    LATENCY,
    DROP_REPLY,
    ANSWER
  }

  /**
   * One fault: {@code calls} is {@code "service/method"}, {@code "service/*"} or {@code "*"}.
   * Immutable.
   */
  public record Rule(Kind kind, String calls, Duration latency, StatusCode status, String message) {
    boolean matches(CallInfo call) {
      if (calls.equals("*")) {
        return true;
      }
      int slash = calls.indexOf('/');
      String method = calls.substring(slash + 1);
      String service = call.method().service();
      return calls.regionMatches(0, service, 0, slash)
          && slash == service.length()
          && (method.equals("*") || method.equals(call.method().method()));
    }

    String service() {
      return calls.equals("*") ? null : calls.substring(0, calls.indexOf('/'));
    }
  }

  private final List<Rule> rules;
  private final long resetAfterCalls;
  private final AtomicLong replies = new AtomicLong();

  /** Faults by {@code rules}; the connection of call {@code resetAfterCalls + 1} is reset (-1: never). */
  public FaultInterceptor(List<Rule> rules, long resetAfterCalls) {
    this.rules = List.copyOf(rules);
    this.resetAfterCalls = resetAfterCalls;
  }

  /**
   * Checks that every rule names a published service.
   *
   * @throws IllegalArgumentException naming the first rule that does not, and the services
   */
  public void checkServices(List<String> published) {
    for (Rule rule : rules) {
      String service = rule.service();
      if (service != null && !published.contains(service)) {
        Set<String> sorted = new TreeSet<>(published);
        throw new IllegalArgumentException(
            "faults: '" + rule.calls() + "' names service '" + service
                + "', which the server does not publish (it publishes: "
                + String.join(", ", sorted) + ")");
      }
    }
  }

  @Override
  public CompletionStage<Object> intercept(CallInfo call, Next next) {
    Duration latency = Duration.ZERO;
    for (Rule rule : rules) {
      if (!rule.matches(call)) {
        continue;
      }
      if (rule.kind() == Kind.ANSWER) {
        return CompletableFuture.failedFuture(RpcxException.of(rule.status(), rule.message()));
      }
      if (rule.kind() == Kind.LATENCY) {
        latency = latency.plus(rule.latency());
      }
    }
    CompletionStage<Object> stage = next.proceed();
    return latency.isZero() ? stage : delayed(stage, latency);
  }

  private static CompletionStage<Object> delayed(CompletionStage<Object> stage, Duration latency) {
    CompletableFuture<Object> late = new CompletableFuture<>();
    stage.whenComplete(
        (result, failure) ->
            CompletableFuture.delayedExecutor(latency.toNanos(), TimeUnit.NANOSECONDS)
                .execute(
                    () -> {
                      if (failure != null) {
                        late.completeExceptionally(failure);
                      } else {
                        late.complete(result);
                      }
                    }));
    return late;
  }

  @Override
  public Action beforeReply(CallInfo call) {
    boolean answered = false;
    boolean drop = false;
    for (Rule rule : rules) {
      if (rule.matches(call)) {
        answered |= rule.kind() == Kind.ANSWER;
        drop |= rule.kind() == Kind.DROP_REPLY;
      }
    }
    if (drop && !answered) {
      return Action.DROP;
    }
    long before = replies.getAndIncrement();
    return before == resetAfterCalls ? Action.RESET : Action.SEND;
  }
}
