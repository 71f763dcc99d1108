package io.rpcx.server.internal.dispatch;

import io.rpcx.core.internal.model.ServiceModels;
import io.rpcx.core.internal.model.StandardCodecs;
import java.util.List;
import java.util.concurrent.Executor;

/** Dispatchers for tests without a network: one service, no interceptors, default limits. */
final class TestDispatchers {
  private TestDispatchers() {}

  /**
   * A dispatcher serving {@code implementation} (an {@code @RPCXServer} class) on {@code executor},
   * or on the calling thread if it is {@code null}.
   */
  static RequestDispatcher serving(Object implementation, Executor executor) {
    return new RequestDispatcher(
        PublishedServices.of(
            List.of(ServiceModels.forServer(implementation.getClass(), StandardCodecs.registry())),
            List.of(implementation),
            true),
        executor,
        EventLoopWatch.of(java.time.Duration.ZERO),
        new CallTracker(),
        1024,
        16,
        List.of(),
        new ExceptionLog(null, false, null, false),
        List.of(),
        1024,
        4L << 20,
        false);
  }
}
