package io.rpcx.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/** Names and tags the observations of served calls; implement it to rename or retag them. */
public interface RpcxServerObservationConvention extends ObservationConvention<RpcxServerContext> {

  @Override
  default boolean supportsContext(Observation.Context context) {
    return context instanceof RpcxServerContext;
  }
}
