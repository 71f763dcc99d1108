package io.rpcx.core.internal.stream;

import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.codec.Values;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import java.io.IOException;

/**
 * An RPCX {@code STREAM_MESSAGE} received and held undecoded: its envelope and the buffer it is in;
 * its element is the envelope's value message.
 */
public record StreamMessage(ReplyEnvelope envelope, Payload payload)
    implements StreamReceiver.Message {

  @Override
  public int size() {
    return payload.length();
  }

  @Override
  public Object decode(ValueCodec<Object> codec, DecodeContext context) throws IOException {
    try {
      return envelope.readValue(
          payload, codec.isBulkBytes(), in -> Values.read(codec, in, context));
    } finally {
      payload.release();
    }
  }

  @Override
  public void release() {
    payload.release();
  }
}
