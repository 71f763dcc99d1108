package io.rpcx.client.internal.call;

import io.rpcx.client.EndpointStatus;
import java.util.concurrent.CompletableFuture;

/**
 * The transport's connection to one server, as a cluster uses it: a {@link CallChannel} that also
 * says whether it takes calls now and can be told to reconnect at once or to retire. Thread-safe.
 */
public interface ServerLink extends CallChannel {

  /**
   * Whether a call sent now would be tried: false while the channel waits to reconnect after
   * failed attempts, or once retired.
   */
  boolean acceptsCalls();

  /**
   * What the channel knows of the server: {@code AVAILABLE}, {@code GOING_AWAY} (it said so, and
   * no connection has been tried since) or {@code UNREACHABLE} (the last connection attempt failed,
   * and none has succeeded since); never a state of ejection, which is the cluster's.
   */
  default EndpointStatus.State linkState() {
    return acceptsCalls() ? EndpointStatus.State.AVAILABLE : EndpointStatus.State.UNREACHABLE;
  }

  /** Forgets the reconnect backoff: the server was announced again, so the next call connects. */
  void reconnectNow();

  /**
   * Takes no new calls and closes the connection once the calls in flight on it have ended. New
   * calls fail as unavailable and safe to retry.
   */
  void retire();

  /**
   * Checks in the background that the server answers, without a caller's call: a fresh
   * connection, the RPCX handshake, then a PING answered. Completes normally once answered (the
   * connection is then kept for the next calls if the channel has no usable one), exceptionally
   * if it fails or takes longer than the connect timeout.
   */
  CompletableFuture<Void> probe();
}
