package io.rpcx.micrometer;

import io.micrometer.common.KeyValues;
import io.rpcx.client.CallResult;
import io.rpcx.client.ClientCall;
import io.rpcx.core.MethodDescriptor;

/**
 * Observations of client calls named {@value RpcxKeys#CLIENT_CALL_DURATION} (a timer in seconds),
 * tagged {@code rpc.system.name}, {@code rpc.method}, {@code rpc.status_code}, {@code error.type},
 * {@code server.address} and {@code server.port}; spans named {@code service/method}. A stream
 * call (docs/STREAMING.md) has, once it ended, the high-cardinality {@code
 * rpcx.stream.messages.sent} and {@code rpcx.stream.messages.received} (those of the directions
 * its method streams): span tags, never meter tags. Extend it to add tags; thread-safe. The key
 * values of each method, server and outcome are made once and kept.
 */
public class DefaultRpcxClientObservationConvention implements RpcxClientObservationConvention {
  /** The instance used when the user gives none. */
  public static final DefaultRpcxClientObservationConvention INSTANCE =
      new DefaultRpcxClientObservationConvention();

  private final MethodTable<KeyValues> methods = new MethodTable<>();

  @Override
  public String getName() {
    return RpcxKeys.CLIENT_CALL_DURATION;
  }

  @Override
  public String getContextualName(RpcxClientContext context) {
    return methods.of(context.call()).name();
  }

  /**
   * The method and server tags; once the attempt ended, its status and {@code error.type} too
   * ({@code none} on success, so that every timer of the name has the same keys).
   */
  @Override
  public KeyValues getLowCardinalityKeyValues(RpcxClientContext context) {
    ClientCall call = context.call();
    CallResult result = context.result();
    String server = call.server();
    return methods
        .of(call)
        .get(
            server == null ? "" : server, result == null ? null : result.status(), RpcTags::client);
  }

  /**
   * Once a stream call ended, the messages it sent and received ({@value
   * RpcxKeys#STREAM_MESSAGES_SENT}, {@value RpcxKeys#STREAM_MESSAGES_RECEIVED}); nothing for a
   * unary call.
   */
  @Override
  public KeyValues getHighCardinalityKeyValues(RpcxClientContext context) {
    if (context.result() == null) {
      return KeyValues.empty();
    }
    ClientCall call = context.call();
    MethodDescriptor.Shape shape = call.method().shape();
    return shape.isStream()
        ? RpcTags.streamMessages(
            shape.clientStreams(),
            call.streamMessagesSent(),
            shape.serverStreams(),
            call.streamMessagesReceived())
        : KeyValues.empty();
  }
}
