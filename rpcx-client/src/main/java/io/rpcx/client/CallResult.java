package io.rpcx.client;

import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import java.time.Duration;
import java.util.Objects;

/** How one attempt of a call ended, as a {@link ClientInterceptor} is told. Immutable. */
public final class CallResult {
  private final StatusCode status;
  private final RpcxException failure;
  private final long durationNanos;
  private final int requestBytes;
  private final int responseBytes;

  /**
   * An outcome: {@code status} {@link StatusCode#OK} with no {@code failure} for a value, else the
   * failure's status and the failure. (RPCX makes these; tests of interceptors may too.)
   *
   * @throws IllegalArgumentException if the status and the failure disagree, or a number is
   *     negative
   */
  public CallResult(
      StatusCode status,
      RpcxException failure,
      long durationNanos,
      int requestBytes,
      int responseBytes) {
    Objects.requireNonNull(status, "status");
    if ((status == StatusCode.OK) != (failure == null)) {
      throw new IllegalArgumentException(
          "status " + status + " with failure " + failure + " (expected: OK with none, else one)");
    }
    if (durationNanos < 0 || requestBytes < 0 || responseBytes < 0) {
      throw new IllegalArgumentException(
          "durationNanos "
              + durationNanos
              + ", requestBytes "
              + requestBytes
              + ", responseBytes "
              + responseBytes
              + " (expected: >= 0)");
    }
    this.status = status;
    this.failure = failure;
    this.durationNanos = durationNanos;
    this.requestBytes = requestBytes;
    this.responseBytes = responseBytes;
  }

  /** {@link StatusCode#OK} if the server answered with a value, else the failure's status. */
  public StatusCode status() {
    return status;
  }

  /** Whether the server answered with a value. */
  public boolean isSuccess() {
    return status == StatusCode.OK;
  }

  /**
   * The failure, or {@code null} on success. For an error the server sent, the exception that
   * stands for its status; the caller may see a more specific one (a checked exception the method
   * declares, say).
   */
  public RpcxException failure() {
    return failure;
  }

  /** From the start of the attempt (just before it was encoded) to its end. */
  public Duration duration() {
    return Duration.ofNanos(durationNanos);
  }

  /** {@link #duration()} in nanoseconds. */
  public long durationNanos() {
    return durationNanos;
  }

  /** Bytes of the request frame's payload; 0 if it was not encoded. */
  public int requestBytes() {
    return requestBytes;
  }

  /** Bytes of the reply frame's payload; 0 if no reply came. */
  public int responseBytes() {
    return responseBytes;
  }

  @Override
  public String toString() {
    return "CallResult["
        + status
        + ", "
        + durationNanos / 1000
        + " us, "
        + requestBytes
        + " -> "
        + responseBytes
        + " bytes"
        + (failure != null ? ", " + failure.getMessage() : "")
        + "]";
  }
}
