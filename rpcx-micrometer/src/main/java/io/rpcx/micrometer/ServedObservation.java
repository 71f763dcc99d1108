package io.rpcx.micrometer;

import io.micrometer.observation.Observation;
import io.rpcx.core.RpcxContext;

/**
 * The observation of the call a server is serving, kept in the call's {@link RpcxContext} so that
 * calls made for it on other threads find their parent. Only core types here: client-only and
 * server-only applications both load it.
 */
final class ServedObservation {
  static final RpcxContext.Key<Observation> KEY =
      RpcxContext.Key.of("rpcx-micrometer served call", Observation.class);

  private ServedObservation() {}
}
