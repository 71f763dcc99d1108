package io.rpcx.core.internal.grpc;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.stream.StreamReceiver;
import java.io.IOException;

/**
 * A gRPC message of a stream, received and held undecoded: the element is field {@code field} of
 * the message (1 in a reply; the stream argument's in a request), absent for null.
 */
public record GrpcElement(Payload payload, int field) implements StreamReceiver.Message {

  @Override
  public int size() {
    return payload.length();
  }

  @Override
  public Object decode(ValueCodec<Object> codec, DecodeContext context) throws IOException {
    try {
      return payload.readValue(
          0, payload.length(), codec.isBulkBytes(), in -> read(in, codec, context));
    } finally {
      payload.release();
    }
  }

  /** The last field {@code field} of the message, absent for null; other fields skipped. */
  private Object read(CodedInputStream in, ValueCodec<Object> codec, DecodeContext context)
      throws IOException {
    Object element = null;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        return element;
      }
      if (WireFormat.getTagFieldNumber(tag) == field) {
        element = codec.readField(in, tag, context);
      } else {
        in.skipField(tag);
      }
    }
  }

  @Override
  public void release() {
    payload.release();
  }
}
