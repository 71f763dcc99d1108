package io.rpcx.server.internal.dispatch;

import io.rpcx.server.CallInfo;

/**
 * A fault a test injects where the reply of a call would be sent (the test kit, {@code rpcx-testing},
 * implements it): a {@link io.rpcx.server.ServerInterceptor} of the server that also implements
 * this is asked, once the call has run, what becomes of its reply. Not for production servers:
 * a dropped reply leaves its caller waiting for its timeout. Implementations are thread-safe.
 */
public interface ReplyFault {

  /** What becomes of a reply. */
  enum Action {
    /** Sent, as always. */
    SEND,
    /** Never sent: the caller waits until its timeout. */
    DROP,
    /** Never sent, and the connection it would go on is closed at once, without GOAWAY. */
    RESET
  }

  /** What becomes of the reply to {@code call}, which has run. Called on the thread that ran it. */
  Action beforeReply(CallInfo call);
}
