package io.rpcx.client.internal.call;

import io.rpcx.core.CallTimeoutException;
import io.rpcx.core.CancelledException;
import io.rpcx.core.RpcxException;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import java.util.concurrent.locks.LockSupport;

/**
 * A call whose caller thread waits for the outcome. The caller times the call out itself, so the
 * connection needs no timer for it.
 */
final class BlockingCall extends PendingCall {
  private static final Object REPLIED = new Object();

  private final Thread caller = Thread.currentThread();
  private volatile Object outcome;
  private ReplyEnvelope envelope;
  private Payload payload;

  BlockingCall(ClientMethod method, Invocation invocation, int attempt, CallRoute previous) {
    super(method, invocation, attempt, previous);
  }

  @Override
  public boolean needsTimer() {
    return false;
  }

  @Override
  void onReply(ReplyEnvelope envelope, Payload payload) {
    this.envelope = envelope;
    this.payload = payload;
    outcome = REPLIED;
    LockSupport.unpark(caller);
  }

  @Override
  void onFailure(RpcxException failure, Throwable thrown) {
    outcome = thrown;
    LockSupport.unpark(caller);
  }

  @Override
  void onArgumentFailure(Throwable error) {
    outcome = error;
    LockSupport.unpark(caller);
  }

  @Override
  void onTimeout() {
    outcome = method.timeoutException(this);
    LockSupport.unpark(caller);
  }

  /** Waits for the outcome and returns the decoded result, or throws the failure. */
  Object await() throws Throwable {
    Object result;
    while ((result = outcome) == null) {
      long remaining = remainingNanos();
      if (remaining <= 0) {
        if (finish()) {
          CallTimeoutException timedOut = method.timeoutException(this);
          ended(CallOutcome.TIMED_OUT, timedOut, 0); // the interceptors see what is thrown
          abandon("its timeout passed on the client");
          throw timedOut;
        }
        continue; // the outcome is being delivered
      }
      LockSupport.parkNanos(this, remaining);
      if (Thread.interrupted()) {
        if (finish()) {
          CancelledException cancelled =
              new CancelledException(
                  "interrupted while waiting for " + model().displayName() + " on " + address(),
                  new InterruptedException());
          ended(CallOutcome.OTHER, cancelled, 0);
          abandon("the calling thread was interrupted");
          Thread.currentThread().interrupt();
          throw cancelled;
        }
        Thread.currentThread().interrupt();
      }
    }
    if (result == REPLIED) {
      return method.decode(envelope, payload, peerSchemas(), address());
    }
    // An RpcxException, a checked exception the method declares, or the stream argument's failure.
    throw (Throwable) result;
  }
}
