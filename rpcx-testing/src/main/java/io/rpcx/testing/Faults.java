package io.rpcx.testing;

import io.rpcx.core.InvalidSettingException;
import io.rpcx.core.StatusCode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Faults the server of an {@link RpcxExtension} injects, scripted and deterministic: the same
 * calls meet the same faults on every run. Each fault names the calls it applies to as {@code
 * "service/method"} (the published names, as in {@code "orders/loadOrder"}), {@code "service/*"}
 * for every method of a service, or {@code "*"} for every call.
 *
 * <pre>{@code
 * @RegisterExtension
 * final RpcxExtension rpcx = RpcxExtension.withServices(new OrderServiceImpl())
 *     .faults(Faults.builder()
 *         .latency("orders/loadOrder", Duration.ofMillis(200))    // answered 200 ms late
 *         .answer("orders/sendStr", StatusCode.UNAVAILABLE, "down for maintenance")
 *         .dropReplies("orders/loadOrders")                       // runs, never answers
 *         .resetConnectionAfterCalls(3)                           // the 4th call's connection closes
 *         .build());
 * }</pre>
 *
 * <p>What a client sees: a latency delays the reply (the implementation runs at once); an
 * answered status is the exception of that status with that message, the implementation never
 * runs; a dropped reply is a {@link io.rpcx.core.CallTimeoutException} once the call's timeout
 * passes, the implementation having run; a reset closes the connection instead of sending the
 * reply, which fails the call, and the calls in flight on that connection, with an {@link
 * io.rpcx.core.UnavailableException}; the next call opens a new connection. When several faults
 * match a call, an answered status wins over the others, and a dropped reply over a reset.
 *
 * <p>Immutable and thread-safe; a server started by the extension (once per class or once per
 * test) starts with its own counts, so a per-test server resets after the same call in every test.
 */
public final class Faults {
  private static final Faults NONE = new Faults(List.of(), -1);

  /** One scripted fault, by kind. Immutable. */
  record Fault(Kind kind, String calls, Duration latency, StatusCode status, String message) {}

  enum Kind {
    LATENCY,
    DROP_REPLY,
    ANSWER
  }

  private final List<Fault> faults;
  private final int resetAfterCalls;

  private Faults(List<Fault> faults, int resetAfterCalls) {
    this.faults = List.copyOf(faults);
    this.resetAfterCalls = resetAfterCalls;
  }

  /** No faults: every call is answered as the implementation answers it. */
  public static Faults none() {
    return NONE;
  }

  /** A builder of faults. */
  public static Builder builder() {
    return new Builder();
  }

  /** The faults by call, in the order they were added. */
  List<Fault> faults() {
    return faults;
  }

  /** After how many answered calls the connection of the next one is reset; -1 for never. */
  int resetAfterCalls() {
    return resetAfterCalls;
  }

  /** Whether there is no fault at all. */
  boolean isEmpty() {
    return faults.isEmpty() && resetAfterCalls < 0;
  }

  @Override
  public String toString() {
    return "Faults" + faults + (resetAfterCalls >= 0 ? " reset after " + resetAfterCalls : "");
  }

  /**
   * Collects faults; every method checks its arguments at once, naming the one that is wrong. Not
   * thread-safe; {@link #build()} copies what was collected, so a builder can be reused.
   */
  public static final class Builder {
    private final List<Fault> faults = new ArrayList<>();
    private int resetAfterCalls = -1;

    private Builder() {}

    /**
     * Answers each matching call {@code delay} later than its implementation does.
     *
     * @throws IllegalArgumentException if {@code calls} is malformed or {@code delay} not positive
     */
    public Builder latency(String calls, Duration delay) {
      Objects.requireNonNull(delay, "delay");
      if (delay.isNegative() || delay.isZero()) {
        throw new InvalidSettingException("latency of " + calls, delay, "> 0");
      }
      faults.add(new Fault(Kind.LATENCY, checkCalls(calls), delay, null, null));
      return this;
    }

    /**
     * Runs each matching call but never sends its reply: its caller waits until its timeout.
     *
     * @throws IllegalArgumentException if {@code calls} is malformed
     */
    public Builder dropReplies(String calls) {
      faults.add(new Fault(Kind.DROP_REPLY, checkCalls(calls), null, null, null));
      return this;
    }

    /**
     * Answers each matching call with {@code status} and {@code message} instead of running it.
     *
     * @throws IllegalArgumentException if {@code calls} is malformed or {@code status} is {@link
     *     StatusCode#OK}, which is no error
     */
    public Builder answer(String calls, StatusCode status, String message) {
      Objects.requireNonNull(status, "status");
      Objects.requireNonNull(message, "message");
      if (status == StatusCode.OK) {
        throw new InvalidSettingException(
            "answer for " + calls, status, "status OK is no error", "another StatusCode");
      }
      faults.add(new Fault(Kind.ANSWER, checkCalls(calls), null, status, message));
      return this;
    }

    /**
     * Answers {@code calls} calls (of any method, on any connection), then closes the connection
     * of the next one instead of replying to it, once: that call and the others in flight on the
     * connection fail as unavailable. 0 resets on the first call.
     *
     * @throws IllegalArgumentException if {@code calls} is negative
     */
    public Builder resetConnectionAfterCalls(int calls) {
      if (calls < 0) {
        throw new InvalidSettingException("resetConnectionAfterCalls", calls, ">= 0");
      }
      this.resetAfterCalls = calls;
      return this;
    }

    /** The faults. */
    public Faults build() {
      return new Faults(faults, resetAfterCalls);
    }

    private static String checkCalls(String calls) {
      Objects.requireNonNull(calls, "calls");
      int slash = calls.indexOf('/');
      boolean valid =
          calls.equals("*")
              || (slash > 0
                  && slash == calls.lastIndexOf('/')
                  && slash < calls.length() - 1
                  && calls.chars().noneMatch(Character::isWhitespace)
                  && !calls.substring(0, slash).contains("*")
                  && (calls.endsWith("/*") || !calls.contains("*")));
      if (!valid) {
        throw new InvalidSettingException(
            "calls",
            calls,
            "\"service/method\", as in \"orders/loadOrder\", \"service/*\" or \"*\"");
      }
      return calls;
    }
  }
}
