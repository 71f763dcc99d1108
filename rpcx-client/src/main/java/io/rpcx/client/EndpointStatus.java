package io.rpcx.client;

/**
 * A snapshot of one server of a service as the client sees it: for dashboards, health checks and
 * tests. Immutable.
 */
public final class EndpointStatus {

  /** Whether the client sends calls to the server. */
  public enum State {
    /** Takes calls: connected, or not needed yet. */
    AVAILABLE,
    /**
     * Said it is going away (GOAWAY: it is shutting down): no new call goes to it while another
     * server may take it, and the client connects again after its reconnect backoff; the server
     * is then {@link #AVAILABLE} again, or {@link #UNREACHABLE}.
     */
    GOING_AWAY,
    /**
     * The last connection attempt failed (or the connection broke and reconnecting failed); the
     * client tries again in the background after each reconnect backoff, and the server is {@link
     * #AVAILABLE} again once one succeeds.
     */
    UNREACHABLE,
    /**
     * Taken out of rotation after failing calls in a row, and probed in the background; its
     * ejection time is not over.
     */
    EJECTED,
    /**
     * Still out of rotation, its ejection time over: the next probe it answers brings it back.
     */
    PROBING
  }

  private final String address;
  private final State state;
  private final int callsInFlight;
  private final long callsStarted;
  private final int consecutiveFailures;

  EndpointStatus(
      String address, State state, int callsInFlight, long callsStarted, int consecutiveFailures) {
    this.address = address;
    this.state = state;
    this.callsInFlight = callsInFlight;
    this.callsStarted = callsStarted;
    this.consecutiveFailures = consecutiveFailures;
  }

  /** {@code host:port}. */
  public String address() {
    return address;
  }

  public State state() {
    return state;
  }

  /** Calls sent to the server and not yet ended, for every service of this client. */
  public int callsInFlight() {
    return callsInFlight;
  }

  /** Calls (and retries) sent to the server since the client started knowing it. */
  public long callsStarted() {
    return callsStarted;
  }

  /** Calls in a row that could not reach the server or timed out. */
  public int consecutiveFailures() {
    return consecutiveFailures;
  }

  @Override
  public String toString() {
    return address + " " + state + " (in flight " + callsInFlight + ", started " + callsStarted
        + ", failures in a row " + consecutiveFailures + ")";
  }
}
