package io.rpcx.core.internal.protocol;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.ProtoWriter;
import io.rpcx.core.internal.codec.Utf8Strings;
import io.rpcx.core.internal.codec.ValueCodec;
import java.io.IOException;

/**
 * Writes and reads the control payloads of streams (docs/PROTOCOL.md, section 5.2), in the layout
 * of rpcx.proto: {@code StreamCredit}, {@code StreamEnd} and {@code StreamCancel}. A {@code
 * StreamMessage} has the layout of an {@code RPCXReply} carrying a value, so {@link
 * ReplyWriter#writeValue} writes it and {@link ReplyEnvelope#parse} reads it. A parsed frame is an
 * immutable value.
 */
public final class StreamFrames {
  static final int STREAM_ID = 1;
  static final int CREDIT_MESSAGES = 2;
  static final int END_ERROR = 2;
  static final int CANCEL_MESSAGE = 2;

  private final int streamId;
  private final int messages;
  private final StatusCode errorCode;
  private final String message;
  private final String exceptionClass;
  private final byte[] exceptionValue;
  private final StackTraceElement[] stackTrace;

  private StreamFrames(
      int streamId,
      int messages,
      StatusCode errorCode,
      String message,
      String exceptionClass,
      byte[] exceptionValue,
      StackTraceElement[] stackTrace) {
    this.streamId = streamId;
    this.messages = messages;
    this.errorCode = errorCode;
    this.message = message;
    this.exceptionClass = exceptionClass;
    this.exceptionValue = exceptionValue;
    this.stackTrace = stackTrace;
  }

  /** Writes a {@code StreamCredit}: {@code messages} more for stream {@code streamId}. */
  public static void writeCredit(ProtoWriter out, int streamId, int messages) {
    writeId(out, streamId);
    if (messages != 0) {
      out.writeTag(CREDIT_MESSAGES, ValueCodec.VARINT);
      out.writeVarint32(messages);
    }
  }

  /** Writes a {@code StreamCancel} of stream {@code streamId}, saying {@code message}. */
  public static void writeCancel(ProtoWriter out, int streamId, String message) {
    writeId(out, streamId);
    if (!message.isEmpty()) {
      out.writeTag(CANCEL_MESSAGE, ValueCodec.LEN);
      out.writeString(message);
    }
  }

  /**
   * Writes a {@code StreamEnd} of stream {@code streamId}: without an error when {@code code} is
   * {@code null} (the stream ended normally), else with the error, laid out as in a reply ({@code
   * thrown}: the exception of a {@code REMOTE_FAILURE}, or {@code null}).
   *
   * @throws IOException if the exception's fields cannot be encoded ({@code CodecException})
   */
  public static void writeEnd(
      ProtoWriter out, int streamId, StatusCode code, String message, ThrownException thrown)
      throws IOException {
    writeId(out, streamId);
    if (code == null) {
      return;
    }
    out.writeTag(END_ERROR, ValueCodec.LEN);
    ReplyWriter.writeErrorMessage(out, code, message, thrown);
  }

  private static void writeId(ProtoWriter out, int streamId) {
    if (streamId != 0) {
      out.writeTag(STREAM_ID, ValueCodec.VARINT);
      out.writeVarint32(streamId);
    }
  }

  /** Parses a {@code StreamCredit} payload. */
  public static StreamFrames parseCredit(Payload payload) throws ProtocolException {
    return parse(payload, FrameType.STREAM_CREDIT);
  }

  /** Parses a {@code StreamEnd} payload. */
  public static StreamFrames parseEnd(Payload payload) throws ProtocolException {
    return parse(payload, FrameType.STREAM_END);
  }

  /** Parses a {@code StreamCancel} payload. */
  public static StreamFrames parseCancel(Payload payload) throws ProtocolException {
    return parse(payload, FrameType.STREAM_CANCEL);
  }

  private static StreamFrames parse(Payload payload, byte type) throws ProtocolException {
    CodedInputStream in = payload.input(0, payload.length());
    int streamId = 0;
    int messages = 0;
    StatusCode code = null;
    String message = "";
    String exceptionClass = "";
    byte[] exceptionValue = null;
    StackTraceElement[] stackTrace = null;
    try {
      while (true) {
        int tag = in.readTag();
        if (tag == 0) {
          break;
        }
        if (tag == ((STREAM_ID << 3) | WireFormat.WIRETYPE_VARINT)) {
          streamId = in.readUInt32();
        } else if (type == FrameType.STREAM_CREDIT
            && tag == ((CREDIT_MESSAGES << 3) | WireFormat.WIRETYPE_VARINT)) {
          messages = in.readUInt32();
        } else if (type == FrameType.STREAM_CANCEL
            && tag == ((CANCEL_MESSAGE << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
          message = ReplyEnvelope.cut(Utf8Strings.read(in));
        } else if (type == FrameType.STREAM_END
            && tag == ((END_ERROR << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
          ErrorFields error = ErrorFields.read(in);
          code = error.code;
          message = error.message;
          exceptionClass = error.exceptionClass;
          exceptionValue = error.exceptionValue;
          stackTrace = error.stackTrace;
        } else {
          Envelopes.skipField(in, tag);
        }
      }
    } catch (IOException e) {
      throw new ProtocolException(
          streamId == 0 ? ProtocolException.NO_REQUEST_ID : Integer.toUnsignedLong(streamId),
          StatusCode.BAD_REQUEST,
          "malformed " + FrameType.name(type) + " frame: " + e.getMessage(),
          e);
    }
    if (code == StatusCode.OK) {
      code = StatusCode.INTERNAL;
      message = "STREAM_END error with status OK";
    }
    return new StreamFrames(
        streamId, messages, code, message, exceptionClass, exceptionValue, stackTrace);
  }

  /** The stream: the {@code request_id} of its call. */
  public int streamId() {
    return streamId;
  }

  /** A credit's messages, unsigned. */
  public int messages() {
    return messages;
  }

  /** Whether an end carries an error; if not, the stream ended normally. */
  public boolean isError() {
    return errorCode != null;
  }

  /** An end's error code, or {@code null} when it ended normally. */
  public StatusCode errorCode() {
    return errorCode;
  }

  /** An end's error message, or a cancel's message; empty when absent. */
  public String message() {
    return message;
  }

  /** An end's exception class, for {@code REMOTE_FAILURE}; empty otherwise. */
  public String exceptionClass() {
    return exceptionClass;
  }

  /** An end's exception's fields (a value), or {@code null} when it carried none. */
  public byte[] exceptionValue() {
    return exceptionValue;
  }

  /**
   * An end's stack trace of the exception the server's implementation threw, innermost frame
   * first, or {@code null} when it sent none. Never modify.
   */
  public StackTraceElement[] stackTrace() {
    return stackTrace;
  }
}
