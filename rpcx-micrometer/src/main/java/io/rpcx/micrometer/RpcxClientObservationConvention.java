package io.rpcx.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/** Names and tags the observations of client calls; implement it to rename or retag them. */
public interface RpcxClientObservationConvention extends ObservationConvention<RpcxClientContext> {

  @Override
  default boolean supportsContext(Observation.Context context) {
    return context instanceof RpcxClientContext;
  }
}
