package io.rpcx.core.internal.protocol;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.Utf8Strings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A received {@code Error}, the same in a {@code REPLY} and a {@code STREAM_END}: its code, its
 * message and exception class (cut to {@link ReplyEnvelope#MAX_ERROR_TEXT} characters, so that a
 * peer cannot flood logs), the exception's fields, copied out of the frame (errors are rare, and
 * the copy outlives the frame), and the server's stack trace if it sent one (its first {@link
 * ReplyEnvelope#MAX_STACK_FRAMES} frames; the rest are skipped, not refused). Immutable.
 */
final class ErrorFields {
  final StatusCode code;
  final String message;
  final String exceptionClass;
  /** {@code Error.exception_value}, or {@code null} when absent. */
  final byte[] exceptionValue;
  /** {@code Error.stack_trace}, or {@code null} when absent. */
  final StackTraceElement[] stackTrace;

  private ErrorFields(
      StatusCode code,
      String message,
      String exceptionClass,
      byte[] exceptionValue,
      StackTraceElement[] stackTrace) {
    this.code = code;
    this.message = message;
    this.exceptionClass = exceptionClass;
    this.exceptionValue = exceptionValue;
    this.stackTrace = stackTrace;
  }

  /** Reads a length-delimited {@code Error} whose tag was just read. */
  static ErrorFields read(CodedInputStream in) throws IOException {
    int oldLimit = in.pushLimit(in.readRawVarint32());
    StatusCode code = StatusCode.INTERNAL;
    String message = "";
    String exceptionClass = "";
    byte[] exceptionValue = null;
    List<StackTraceElement> frames = null;
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
        case (ReplyWriter.ERROR_STACK_TRACE << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
          if (frames == null) {
            frames = new ArrayList<>();
          }
          if (frames.size() < ReplyEnvelope.MAX_STACK_FRAMES) {
            frames.add(readFrame(in));
          } else {
            Envelopes.skipField(in, tag);
          }
          break;
        default:
          Envelopes.skipField(in, tag);
      }
    }
    in.popLimit(oldLimit);
    return new ErrorFields(
        code,
        message,
        exceptionClass,
        exceptionValue,
        frames == null ? null : frames.toArray(new StackTraceElement[0]));
  }

  /**
   * Reads a length-delimited {@code StackFrame} whose tag was just read: an absent file name is
   * unknown (null), an absent line number 0.
   */
  private static StackTraceElement readFrame(CodedInputStream in) throws IOException {
    int oldLimit = in.pushLimit(in.readRawVarint32());
    String className = "";
    String methodName = "";
    String fileName = null;
    int lineNumber = 0;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      }
      switch (tag) {
        case (ReplyWriter.FRAME_CLASS << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
          className = ReplyEnvelope.cut(Utf8Strings.read(in));
          break;
        case (ReplyWriter.FRAME_METHOD << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
          methodName = ReplyEnvelope.cut(Utf8Strings.read(in));
          break;
        case (ReplyWriter.FRAME_FILE << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
          fileName = ReplyEnvelope.cut(Utf8Strings.read(in));
          break;
        case (ReplyWriter.FRAME_LINE << 3) | WireFormat.WIRETYPE_VARINT:
          lineNumber = in.readSInt32();
          break;
        default:
          Envelopes.skipField(in, tag);
      }
    }
    in.popLimit(oldLimit);
    return new StackTraceElement(className, methodName, fileName, lineNumber);
  }
}
