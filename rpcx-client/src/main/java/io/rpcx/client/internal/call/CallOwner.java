package io.rpcx.client.internal.call;

import io.rpcx.core.internal.codec.PeerSchemas;

/** The connection a call was sent on, which keeps it among its pending calls until it ends. */
public interface CallOwner {

  /** Forgets {@code call}, whose caller has given up; a late reply will be discarded. */
  void abandon(PendingCall call);

  /**
   * Forgets {@code call}, a server stream its subscriber cancelled, and sends {@code
   * STREAM_CANCEL} if the server has it; nothing if it was not sent or has ended.
   */
  void cancelStream(PendingCall call);

  /** Sends {@code STREAM_CREDIT}: the server may send {@code messages} more on {@code call}. */
  void sendCredit(PendingCall call, int messages);

  /** The POJO schemas the server announced on this connection, to decode replies with. */
  PeerSchemas peerSchemas();
}
