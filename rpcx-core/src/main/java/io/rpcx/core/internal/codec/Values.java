package io.rpcx.core.internal.codec;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;

/**
 * A whole argument or result on the wire: a message whose field 1 holds the value, absent for null
 * (docs/PROTOCOL.md, "Values"). For scalars this is exactly protobuf's well-known wrapper types
 * ({@code google.protobuf.StringValue} and friends).
 */
public final class Values {
  /** The field of the value inside its wrapper message. */
  public static final int VALUE_FIELD = 1;

  private Values() {}

  /** Writes the wrapper message for {@code value}, without a length prefix; nothing if absent. */
  public static <T> void write(ProtoWriter out, ValueCodec<T> codec, T value) throws IOException {
    codec.writeField(out, VALUE_FIELD, value);
  }

  /**
   * Reads a wrapper message that fills {@code in} up to its limit. Returns {@code null} when field 1
   * is absent: the caller decides what an absent value means for its declared type.
   */
  public static <T> T read(ValueCodec<T> codec, CodedInputStream in, DecodeContext context)
      throws IOException {
    T value = null;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        return value;
      }
      if (WireFormat.getTagFieldNumber(tag) == VALUE_FIELD) {
        value = codec.readField(in, tag, context);
      } else {
        in.skipField(tag);
      }
    }
  }
}
