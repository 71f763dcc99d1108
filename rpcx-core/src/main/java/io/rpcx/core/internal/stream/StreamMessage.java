package io.rpcx.core.internal.stream;

import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ReplyEnvelope;

/** A {@code STREAM_MESSAGE} received and held undecoded: its envelope and the buffer it is in. */
public record StreamMessage(ReplyEnvelope envelope, Payload payload)
    implements StreamReceiver.Message {

  @Override
  public int size() {
    return payload.length();
  }

  @Override
  public void release() {
    payload.release();
  }
}
