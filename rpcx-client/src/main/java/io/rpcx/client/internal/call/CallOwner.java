package io.rpcx.client.internal.call;

import io.rpcx.core.internal.codec.PeerSchemas;

/** The connection a call was sent on, which keeps it among its pending calls until it ends. */
public interface CallOwner {

  /**
   * Forgets {@code call}, whose caller has given up (timed out, cancelled, interrupted), and tells
   * the server, if it has the call, with {@code STREAM_CANCEL} saying {@code reason} (for a call
   * of any shape: docs/PROTOCOL.md, 1.7), so that it stops serving it; a late reply will be
   * discarded.
   */
  void abandon(PendingCall call, String reason);

  /**
   * Forgets {@code call}, a stream of any shape that its caller gave up on (cancelled, timed out,
   * or its stream argument failed), and sends {@code STREAM_CANCEL} saying {@code message} if the
   * server has it; nothing if it was not sent or has ended. Queued behind the frames already
   * queued for it.
   */
  void cancelStream(PendingCall call, String message);

  /** Sends {@code STREAM_CREDIT}: the server may send {@code messages} more on {@code call}. */
  void sendCredit(PendingCall call, int messages);

  /**
   * Encodes one element of {@code call}'s stream argument on the calling thread and queues it as
   * a {@code STREAM_MESSAGE} behind the request.
   *
   * @return false, queueing nothing, if it is over the frame limit
   * @throws Exception if the element cannot be encoded; nothing was queued
   */
  boolean sendStreamMessage(PendingCall call, Object element) throws Exception;

  /** Queues a {@code STREAM_END} of {@code call}'s stream argument: it has no more elements. */
  void sendStreamEnd(PendingCall call);

  /** The POJO schemas the server announced on this connection, to decode replies with. */
  PeerSchemas peerSchemas();
}
