package io.rpcx.core.internal.codec;

import com.google.protobuf.CodedInputStream;
import java.io.IOException;

/**
 * A codec whose values are encoded as nested protobuf messages: length, then fields. Collections,
 * maps and POJOs are message codecs. Takes care of the length prefix, the nesting depth and the
 * read limit, so subclasses only deal with the fields.
 */
public abstract class MessageCodec<T> extends ValueCodec<T> {
  /** The length this codec wrote last (roughly): how many length bytes to reserve next time. */
  private volatile int sizeHint;

  protected MessageCodec(String typeName) {
    super(typeName, LEN);
  }

  /** Writes the message's fields. */
  protected abstract void writePayload(ProtoWriter out, T value) throws IOException;

  /** Reads the message's fields until {@code in} reports the end of the message (tag 0). */
  protected abstract T readPayload(CodedInputStream in, DecodeContext context) throws IOException;

  @Override
  public final void write(ProtoWriter out, T value) throws IOException {
    int hint = sizeHint;
    long mark = out.beginLengthDelimited(hint);
    writePayload(out, value);
    int length = out.endLengthDelimited(mark);
    if (ProtoWriter.varint32Size(length) != ProtoWriter.varint32Size(hint)) {
      sizeHint = length; // written only when the length's size class changes
    }
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
