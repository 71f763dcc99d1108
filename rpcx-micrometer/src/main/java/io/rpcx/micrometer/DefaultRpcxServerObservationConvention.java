package io.rpcx.micrometer;

import io.micrometer.common.KeyValues;

/**
 * Observations of served calls named {@value RpcxKeys#SERVER_CALL_DURATION} (a timer in seconds),
 * tagged {@code rpc.system.name}, {@code rpc.method} ({@value RpcxKeys#OTHER} for a method the
 * server does not publish), {@code rpc.status_code} and {@code error.type}, with the client's
 * address as a high-cardinality {@code network.peer.address}; spans named {@code service/method}.
 * Extend it to add tags; thread-safe. The key values of each published method and outcome are made
 * once and kept.
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

  @Override
  public KeyValues getHighCardinalityKeyValues(RpcxServerContext context) {
    String address = context.remoteAddress();
    return KeyValues.of(RpcxKeys.NETWORK_PEER_ADDRESS, address == null ? "unknown" : address);
  }
}
