package io.rpcx.micrometer;

import io.micrometer.common.KeyValues;
import io.rpcx.core.MethodDescriptor;
import io.rpcx.server.CallInfo;

/**
 * Observations of served calls named {@value RpcxKeys#SERVER_CALL_DURATION} (a timer in seconds),
 * tagged {@code rpc.system.name}, {@code rpc.method} ({@value RpcxKeys#OTHER} for a method the
 * server does not publish), {@code rpc.status_code} and {@code error.type}, with the client's
 * address as a high-cardinality {@code network.peer.address}; spans named {@code service/method}.
 * A stream call (docs/STREAMING.md) also has the high-cardinality {@code
 * rpcx.stream.messages.sent} and {@code rpcx.stream.messages.received} (those of the directions
 * its method streams; final once it ended). Extend it to add tags; thread-safe. The key values of
 * each published method and outcome are made once and kept.
 */
public class DefaultRpcxServerObservationConvention implements RpcxServerObservationConvention {
  /** The instance used when the user gives none. */
  public static final DefaultRpcxServerObservationConvention INSTANCE =
      new DefaultRpcxServerObservationConvention();

  private final MethodTable<KeyValues> methods = new MethodTable<>();

  @Override
  public String getName() {
    return RpcxKeys.SERVER_CALL_DURATION;
  }

  @Override
  public String getContextualName(RpcxServerContext context) {
    return method(context).name();
  }

  /** The method tag ({@code _OTHER} for a method the server does not publish), status and error. */
  @Override
  public KeyValues getLowCardinalityKeyValues(RpcxServerContext context) {
    return method(context)
        .get("", context.status(), (name, server, status) -> RpcTags.server(name, status));
  }

  private MethodValues<KeyValues> method(RpcxServerContext context) {
    return methods.of(context.service(), context.method(), context.isMethodKnown());
  }

  /**
   * The client's address; for a stream call, the messages it sent and received so far ({@value
   * RpcxKeys#STREAM_MESSAGES_SENT}, {@value RpcxKeys#STREAM_MESSAGES_RECEIVED}), all of them when
   * the observation stops.
   */
  @Override
  public KeyValues getHighCardinalityKeyValues(RpcxServerContext context) {
    String address = context.remoteAddress();
    KeyValues values =
        KeyValues.of(RpcxKeys.NETWORK_PEER_ADDRESS, address == null ? "unknown" : address);
    CallInfo call = context.getCarrier(); // null for a refused call, which streamed nothing
    if (call == null) {
      return values;
    }
    MethodDescriptor.Shape shape = call.method().shape();
    return shape.isStream()
        ? values.and(
            RpcTags.streamMessages(
                shape.serverStreams(),
                call.streamMessagesSent(),
                shape.clientStreams(),
                call.streamMessagesReceived()))
        : values;
  }
}
