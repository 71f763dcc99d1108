package io.rpcx.client.internal.call;

import io.rpcx.core.CancelledException;
import io.rpcx.core.RpcxException;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A call whose caller thread waits for the outcome. The caller times the call out itself, so the
 * connection needs no timer for it; the first of reply, failure, timeout and interruption wins.
 */
final class BlockingCall extends PendingCall {
  private static final VarHandle OUTCOME;
  private static final Object REPLIED = new Object();
  private static final Object GAVE_UP = new Object();

  static {
    try {
      OUTCOME = MethodHandles.lookup().findVarHandle(BlockingCall.class, "outcome", Object.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Thread caller = Thread.currentThread();
  private volatile Object outcome;
  private ReplyEnvelope envelope;
  private Payload payload;

  BlockingCall(ClientMethod method, Object[] args) {
    super(method, args);
  }

  @Override
  public boolean needsTimer() {
    return false;
  }

  @Override
  public void onReply(ReplyEnvelope envelope, Payload payload) {
    this.envelope = envelope;
    this.payload = payload;
    if (!complete(REPLIED)) {
      payload.release();
    }
  }

  @Override
  public void onFailure(RpcxException failure) {
    complete(failure);
  }

  private boolean complete(Object result) {
    if (OUTCOME.compareAndSet(this, null, result)) {
      LockSupport.unpark(caller);
      return true;
    }
    return false;
  }

  /** Waits for the outcome and returns the decoded result, or throws the failure. */
  Object await() throws Throwable {
    Object result;
    while ((result = outcome) == null) {
      long remaining = remainingNanos();
      if (remaining <= 0) {
        if (complete(GAVE_UP)) {
          abandon();
          throw method.timeoutException();
        }
        continue;
      }
      LockSupport.parkNanos(this, remaining);
      if (Thread.interrupted()) {
        if (complete(GAVE_UP)) {
          abandon();
          Thread.currentThread().interrupt();
          throw new CancelledException(
              "interrupted while waiting for " + model().displayName() + " on "
                  + method.address(),
              new InterruptedException());
        }
        Thread.currentThread().interrupt();
      }
    }
    if (result == REPLIED) {
      return method.decode(envelope, payload, peerSchemas());
    }
    throw (RpcxException) result;
  }
}
