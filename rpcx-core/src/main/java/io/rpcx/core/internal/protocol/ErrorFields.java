package io.rpcx.core.internal.protocol;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.Utf8Strings;
import java.io.IOException;

/**
 * A received {@code Error}, the same in a {@code REPLY} and a {@code STREAM_END}: its code, its
 * message and exception class (cut to {@link ReplyEnvelope#MAX_ERROR_TEXT} characters, so that a
 * peer cannot flood logs), and the exception's fields, copied out of the frame (errors are rare,
 * and the copy outlives the frame). Immutable.
 */
final class ErrorFields {
  final StatusCode code;
  final String message;
  final String exceptionClass;
  /** {@code Error.exception_value}, or {@code null} when absent. */
  final byte[] exceptionValue;

  private ErrorFields(
      StatusCode code, String message, String exceptionClass, byte[] exceptionValue) {
    this.code = code;
    this.message = message;
    this.exceptionClass = exceptionClass;
    this.exceptionValue = exceptionValue;
  }

  /** Reads a length-delimited {@code Error} whose tag was just read. */
  static ErrorFields read(CodedInputStream in) throws IOException {
    int oldLimit = in.pushLimit(in.readRawVarint32());
    StatusCode code = StatusCode.INTERNAL;
    String message = "";
    String exceptionClass = "";
    byte[] exceptionValue = null;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      }
      switch (tag) {
        case (ReplyWriter.ERROR_CODE << 3) | WireFormat.WIRETYPE_VARINT:
          code = StatusCode.forNumber(in.readEnum());
          break;
        case (ReplyWriter.ERROR_MESSAGE << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
          message = ReplyEnvelope.cut(Utf8Strings.read(in));
          break;
        case (ReplyWriter.ERROR_EXCEPTION_CLASS << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
          exceptionClass = ReplyEnvelope.cut(Utf8Strings.read(in));
          break;
        case (ReplyWriter.ERROR_EXCEPTION_VALUE << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
          exceptionValue = in.readByteArray();
          break;
        default:
          Envelopes.skipField(in, tag);
      }
    }
    in.popLimit(oldLimit);
    return new ErrorFields(code, message, exceptionClass, exceptionValue);
  }
}
