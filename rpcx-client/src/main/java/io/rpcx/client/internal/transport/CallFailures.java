package io.rpcx.client.internal.transport;

import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.core.RpcxException;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.internal.protocol.Failures;

/**
 * What a call fails with when the connection to one server cannot carry it, and whether retrying
 * it elsewhere is safe: safe when the server cannot have run it (it was never written, or the
 * server never spoke RPCX), not safe once it was written.
 */
final class CallFailures {
  private final String address;

  CallFailures(String address) {
    this.address = address;
  }

  /** A call that was never written: the connection had closed ({@code cause}, if known). */
  UnavailableException notSent(PendingCall call, RpcxException cause) {
    return UnavailableException.notProcessed(
        call.model().displayName() + " was not sent to " + address + ": "
            + (cause != null ? cause.getMessage() : "the connection is closed"),
        cause);
  }

  /** A call that was never written because the client is closing. */
  UnavailableException notSentClientClosed(PendingCall call) {
    return UnavailableException.notProcessed(
        call.model().displayName() + " was not sent to " + address + ": the client is closed");
  }

  /** The connection closed ({@code what} happened, if known) before the server's preface. */
  UnavailableException notAnRpcxServer(String what) {
    return UnavailableException.notProcessed(
        address + " closed the connection before completing the RPCX handshake"
            + (what == null ? "" : " (" + what + ")")
            + " (is it an RPCX server? does it require TLS?)");
  }

  /** The connection closed ({@code what} happened, if known) before the server's HTTP/2 SETTINGS. */
  UnavailableException notAGrpcServer(String what) {
    return UnavailableException.notProcessed(
        address + " closed the connection before completing the HTTP/2 handshake"
            + (what == null ? "" : " (" + what + ")")
            + " (is it a gRPC server? does it require TLS?)");
  }

  /**
   * A call that was written when the connection closed because of {@code cause}: it may have run,
   * unless the server never completed the handshake ({@code handshakeDone}). A connection that was
   * draining ({@code wasDraining}) was lost, whatever its retirement reason said.
   */
  RpcxException lostInFlight(
      PendingCall call, RpcxException cause, boolean handshakeDone, boolean wasDraining) {
    if (!handshakeDone && cause instanceof UnavailableException) {
      // The server never spoke RPCX on this connection, so it processed nothing.
      return UnavailableException.notProcessed(
          call.model().displayName() + " was not processed: " + cause.getMessage(), cause);
    }
    String message =
        "connection to " + address + " closed while " + call.model().displayName()
            + " was in flight: "
            + (cause == null || wasDraining ? "the connection was lost" : cause.getMessage());
    if (cause == null || cause instanceof UnavailableException) {
      return UnavailableException.mayHaveRun(message, cause);
    }
    return Failures.of(cause.status(), message, "", true);
  }

  /**
   * The message of {@code cause}'s root, without the system-call prefix native transports add
   * ("finishConnect(..) failed with error(-111): ").
   */
  static String describe(Throwable cause) {
    Throwable root = cause;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage();
    if (message == null) {
      return root.getClass().getSimpleName();
    }
    return message.replaceFirst("^\\w+\\(\\.\\.\\) failed with error\\(-?\\d+\\): ", "");
  }
}
