package io.rpcx.opentelemetry;

import io.opentelemetry.context.Context;
import io.rpcx.core.RpcxContext;

/**
 * The OpenTelemetry context of the call a server is serving, kept in the call's {@link RpcxContext}
 * so that calls made for it on other threads find their parent. Only core types here: client-only
 * and server-only applications both load it.
 */
final class ServedContext {
  static final RpcxContext.Key<Context> KEY =
      RpcxContext.Key.of("rpcx-opentelemetry served call", Context.class);

  private ServedContext() {}
}
