package io.rpcx.core.internal.codec;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import java.io.IOException;

/**
 * A codec whose values are encoded as nested protobuf messages: length, then fields. Collections,
 * maps and POJOs are message codecs. Takes care of the size slot, the length prefix, the nesting
 * depth and the read limit, so subclasses only deal with the fields.
 */
public abstract class MessageCodec<T> extends ValueCodec<T> {

  protected MessageCodec(String typeName) {
    super(typeName, LEN);
  }

  /** Size of the message's fields, without length prefix. */
  protected abstract int payloadSize(T value, SizeCache sizes) throws CodecException;

  /** Writes the message's fields, mirroring {@link #payloadSize}. */
  protected abstract void writePayload(CodedOutputStream out, T value, SizeCache sizes)
      throws IOException;

  /** Reads the message's fields until {@code in} reports the end of the message (tag 0). */
  protected abstract T readPayload(CodedInputStream in, DecodeContext context) throws IOException;

  @Override
  public final int encodedSize(T value, SizeCache sizes) throws CodecException {
    int slot = sizes.reserve();
    int payload = payloadSize(value, sizes);
    sizes.set(slot, payload);
    return CodedOutputStream.computeUInt32SizeNoTag(payload) + payload;
  }

  @Override
  public final void write(CodedOutputStream out, T value, SizeCache sizes) throws IOException {
    out.writeUInt32NoTag(sizes.next());
    writePayload(out, value, sizes);
  }

  @Override
  public final T read(CodedInputStream in, DecodeContext context) throws IOException {
    int length = in.readRawVarint32();
    int oldLimit = in.pushLimit(length);
    context.enter(typeName());
    T value = readPayload(in, context);
    context.exit();
    in.popLimit(oldLimit);
    return value;
  }
}
