package io.rpcx.server;

/**
 * Told of every call the server refuses before its interceptors run (see {@link RefusedCall}), so
 * that metrics count what interceptors never see. Runs on a network thread: it must be quick and
 * must not block; what it throws is logged and ignored. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface RefusalListener {

  /** {@code call} was refused. */
  void onRefused(RefusedCall call);
}
