package io.rpcx.client.internal.call;

import io.rpcx.core.internal.codec.PeerSchemas;

/** The connection a call was sent on, which keeps it among its pending calls until it ends. */
public interface CallOwner {

  /** Forgets {@code call}, whose caller has given up; a late reply will be discarded. */
  void abandon(PendingCall call);

  /** The POJO schemas the server announced on this connection, to decode replies with. */
  PeerSchemas peerSchemas();
}
