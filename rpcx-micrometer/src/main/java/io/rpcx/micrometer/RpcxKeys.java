package io.rpcx.micrometer;

/**
 * The tag keys and values of RPCX observations, after the OpenTelemetry semantic conventions for
 * RPC (release candidate since semconv 1.40).
 */
public final class RpcxKeys {
  /** The RPC system: always {@value #SYSTEM}. */
  public static final String RPC_SYSTEM_NAME = "rpc.system.name";

  /** {@code service/method}, or {@value #OTHER} for a method the server does not publish. */
  public static final String RPC_METHOD = "rpc.method";

  /** The status the call ended with: {@code OK} or a {@code StatusCode} name. */
  public static final String RPC_STATUS_CODE = "rpc.status_code";

  /** The status name of a failed call; {@value #NONE} when it succeeded. */
  public static final String ERROR_TYPE = "error.type";

  /** The server's host, on the client's observations. */
  public static final String SERVER_ADDRESS = "server.address";

  /** The server's port, on the client's observations. */
  public static final String SERVER_PORT = "server.port";

  /** The peer's address, a high-cardinality key on the server's observations. */
  public static final String NETWORK_PEER_ADDRESS = "network.peer.address";

  /** The value of {@link #RPC_SYSTEM_NAME}. */
  public static final String SYSTEM = "rpcx";

  /** The value of {@link #RPC_METHOD} for a method the server does not publish. */
  public static final String OTHER = "_OTHER";

  /**
   * The value of {@link #ERROR_TYPE} on success: metrics registries such as Prometheus want every
   * timer of a name to carry the same keys.
   */
  public static final String NONE = "none";

  /** The name of the client's timer. */
  public static final String CLIENT_CALL_DURATION = "rpc.client.call.duration";

  /** The name of the server's timer. */
  public static final String SERVER_CALL_DURATION = "rpc.server.call.duration";

  /**
   * The counter of the messages a client sent on its stream calls (a {@code Flow.Publisher}
   * argument), added when each call ends. The OpenTelemetry conventions name no such meter.
   */
  public static final String CLIENT_STREAM_MESSAGES_SENT = "rpcx.client.stream.messages.sent";

  /**
   * The counter of the messages a client received on its stream calls (a {@code Flow.Publisher} or
   * {@code Stream} result), added when each call ends.
   */
  public static final String CLIENT_STREAM_MESSAGES_RECEIVED =
      "rpcx.client.stream.messages.received";

  /** The counter of the messages a server sent on stream calls, added when each call ends. */
  public static final String SERVER_STREAM_MESSAGES_SENT = "rpcx.server.stream.messages.sent";

  /** The counter of the messages a server received on stream calls, added when each call ends. */
  public static final String SERVER_STREAM_MESSAGES_RECEIVED =
      "rpcx.server.stream.messages.received";

  /**
   * The messages a stream call sent, a high-cardinality key (a span tag) of its observation, on the
   * side that sends a stream.
   */
  public static final String STREAM_MESSAGES_SENT = "rpcx.stream.messages.sent";

  /**
   * The messages a stream call received, a high-cardinality key (a span tag) of its observation, on
   * the side that receives a stream.
   */
  public static final String STREAM_MESSAGES_RECEIVED = "rpcx.stream.messages.received";

  private RpcxKeys() {}
}
