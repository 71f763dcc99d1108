package io.rpcx.server;

import io.rpcx.core.StatusCode;
import java.util.Objects;

/**
 * A call the server answered without running its interceptors or its implementation: an unknown
 * service or method, a server going away, too many calls on the connection, a full queue, or a
 * caller whose timeout passed before the call could start (such a call gets no answer at all).
 * Immutable.
 */
public final class RefusedCall {
  private final String service;
  private final String method;
  private final boolean methodKnown;
  private final StatusCode status;
  private final String reason;
  private final String remoteAddress;

  /**
   * A refusal of {@code service/method} from {@code remoteAddress}, with {@code status}. (RPCX
   * makes these; tests of listeners may too.)
   */
  public RefusedCall(
      String service,
      String method,
      boolean methodKnown,
      StatusCode status,
      String reason,
      String remoteAddress) {
    this.service = Objects.requireNonNull(service, "service");
    this.method = Objects.requireNonNull(method, "method");
    this.methodKnown = methodKnown;
    this.status = Objects.requireNonNull(status, "status");
    this.reason = Objects.requireNonNull(reason, "reason");
    this.remoteAddress = Objects.requireNonNull(remoteAddress, "remoteAddress");
  }

  /** The service name the request carried. */
  public String service() {
    return service;
  }

  /** The method name the request carried. */
  public String method() {
    return method;
  }

  /**
   * Whether the server publishes {@code service/method}; names it does not publish come from the
   * client and are unbounded, so metrics should not use them as tags.
   */
  public boolean isMethodKnown() {
    return methodKnown;
  }

  /** The status the client was answered with ({@link StatusCode#TIMEOUT} if it was dropped). */
  public StatusCode status() {
    return status;
  }

  /** Why, as the client was told. */
  public String reason() {
    return reason;
  }

  /** The client's address. */
  public String remoteAddress() {
    return remoteAddress;
  }

  @Override
  public String toString() {
    return "RefusedCall["
        + service
        + "/"
        + method
        + " from "
        + remoteAddress
        + ": "
        + status
        + ", "
        + reason
        + "]";
  }
}
