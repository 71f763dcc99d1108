package io.rpcx.core.internal.protocol;

import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.ProtoWriter;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.codec.Values;
import java.io.IOException;

/** Writes {@code RPCXReply} payloads straight into an output buffer, in the layout of rpcx.proto. */
public final class ReplyWriter {
  static final int REQUEST_ID = 1;
  static final int VALUE = 2;
  static final int ERROR = 3;
  static final int ERROR_CODE = 1;
  static final int ERROR_MESSAGE = 2;
  static final int ERROR_EXCEPTION_CLASS = 3;
  static final int ERROR_EXCEPTION_VALUE = 4;
  static final int ERROR_STACK_TRACE = 5;
  static final int FRAME_CLASS = 1;
  static final int FRAME_METHOD = 2;
  static final int FRAME_FILE = 3;
  static final int FRAME_LINE = 4;

  private ReplyWriter() {}

  /**
   * Writes a successful reply carrying {@code value}; {@code codec} is null for a void method.
   * {@code sizeHint} is the value's length last time; returns its length this time (0 if none).
   */
  public static <T> int writeValue(
      ProtoWriter out, int requestId, ValueCodec<T> codec, T value, int sizeHint)
      throws IOException {
    out.writeTag(REQUEST_ID, ValueCodec.VARINT);
    out.writeVarint32(requestId);
    if (codec == null || codec.isAbsent(value)) {
      return 0;
    }
    out.writeTag(VALUE, ValueCodec.LEN);
    long mark = out.beginLengthDelimited(sizeHint);
    Values.write(out, codec, value);
    return out.endLengthDelimited(mark);
  }

  /**
   * Writes an error reply; {@code thrown} is the exception of a {@code REMOTE_FAILURE}, or {@code
   * null}.
   *
   * @throws IOException if the exception's fields cannot be encoded ({@code CodecException})
   */
  public static void writeError(
      ProtoWriter out, int requestId, StatusCode code, String message, ThrownException thrown)
      throws IOException {
    out.writeTag(REQUEST_ID, ValueCodec.VARINT);
    out.writeVarint32(requestId);
    out.writeTag(ERROR, ValueCodec.LEN);
    writeErrorMessage(out, code, message, thrown);
  }

  /** Writes an {@code Error} message, length first: in a reply and in a {@code STREAM_END}. */
  static void writeErrorMessage(
      ProtoWriter out, StatusCode code, String message, ThrownException thrown)
      throws IOException {
    long mark = out.beginLengthDelimited();
    out.writeTag(ERROR_CODE, ValueCodec.VARINT);
    out.writeVarint32(code.number());
    if (!message.isEmpty()) {
      out.writeTag(ERROR_MESSAGE, ValueCodec.LEN);
      out.writeString(message);
    }
    if (thrown != null) {
      thrown.writeTo(out);
    }
    out.endLengthDelimited(mark);
  }
}
