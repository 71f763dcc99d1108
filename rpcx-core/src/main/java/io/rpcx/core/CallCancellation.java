package io.rpcx.core;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the call of an {@link RpcxContext} was cancelled, and who is told when it is: shared by
 * the context of a call and the contexts derived from it. Cancelled at most once; a listener runs
 * once, on the thread that cancels (or at once, on the registering thread, if the call was
 * cancelled already). Thread-safe.
 */
final class CallCancellation {
  private static final Logger logger = LoggerFactory.getLogger(CallCancellation.class);

  private volatile String reason;
  /** Listeners not yet run; {@code null} once cancelled. Guarded by this. */
  private List<RpcxContext.Registration> listeners = new ArrayList<>(2);

  boolean isCancelled() {
    return reason != null;
  }

  String reason() {
    return reason;
  }

  RpcxContext.Registration register(Runnable listener) {
    RpcxContext.Registration registration = new RpcxContext.Registration(this, listener);
    synchronized (this) {
      if (listeners != null) {
        listeners.add(registration);
        return registration;
      }
    }
    run(registration);
    return registration;
  }

  synchronized void remove(RpcxContext.Registration registration) {
    if (listeners != null) {
      listeners.remove(registration);
    }
  }

  /** Cancels, saying {@code why}, and runs the listeners; false if it was cancelled already. */
  boolean cancel(String why) {
    List<RpcxContext.Registration> toRun;
    synchronized (this) {
      if (listeners == null) {
        return false;
      }
      reason = why;
      toRun = listeners;
      listeners = null;
    }
    for (RpcxContext.Registration registration : toRun) {
      run(registration);
    }
    return true;
  }

  private static void run(RpcxContext.Registration registration) {
    try {
      registration.listener().run();
    } catch (RuntimeException e) {
      // One listener's failure must not keep the others from hearing of the cancellation.
      logger.warn("A cancellation listener failed", e);
    }
  }
}
