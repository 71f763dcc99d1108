package io.rpcx.core.internal.protocol;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.Utf8Strings;
import java.io.IOException;

/**
 * A received {@code RPCXReply}: the request id, and either the location of the result value in the
 * frame payload or the error. The value itself is decoded later by the caller's thread. A reply
 * that came by another wire protocol (gRPC's reply message, or its status) is made with {@link
 * #value} or {@link #error}, so that the call reads it the same way.
 */
public final class ReplyEnvelope {
  /** Longest error text kept from a peer; the rest is cut so a peer cannot flood logs. */
  static final int MAX_ERROR_TEXT = 4096;

  /**
   * Most frames of a stack trace sent, and kept from a peer (the rest are skipped, so that a peer
   * cannot make a receiver hold millions of them): the innermost, where a trace says what went
   * wrong.
   */
  static final int MAX_STACK_FRAMES = 256;

  private final int requestId;
  private final int valueOffset;
  private final int valueLength;
  private final StatusCode errorCode;
  private final String errorMessage;
  private final String exceptionClass;
  private final byte[] exceptionValue;
  private final StackTraceElement[] stackTrace;

  private ReplyEnvelope(
      int requestId,
      int valueOffset,
      int valueLength,
      StatusCode errorCode,
      String errorMessage,
      String exceptionClass,
      byte[] exceptionValue,
      StackTraceElement[] stackTrace) {
    this.requestId = requestId;
    this.valueOffset = valueOffset;
    this.valueLength = valueLength;
    this.errorCode = errorCode;
    this.errorMessage = errorMessage;
    this.exceptionClass = exceptionClass;
    this.exceptionValue = exceptionValue;
    this.stackTrace = stackTrace;
  }

  /**
   * Parses a reply payload.
   *
   * @throws ProtocolException if the payload is not a well-formed reply
   */
  public static ReplyEnvelope parse(Payload payload) throws ProtocolException {
    int base = 0;
    CodedInputStream in = payload.input(0, payload.length());
    long requestId = ProtocolException.NO_REQUEST_ID;
    int valueOffset = 0;
    int valueLength = -1;
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
        switch (tag) {
          case (ReplyWriter.REQUEST_ID << 3) | WireFormat.WIRETYPE_VARINT:
            requestId = Integer.toUnsignedLong(in.readUInt32());
            break;
          case (ReplyWriter.VALUE << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
            valueLength = in.readRawVarint32();
            valueOffset = base + in.getTotalBytesRead();
            in.skipRawBytes(valueLength);
            code = null;
            break;
          case (ReplyWriter.ERROR << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
            ErrorFields error = ErrorFields.read(in);
            code = error.code;
            message = error.message;
            exceptionClass = error.exceptionClass;
            exceptionValue = error.exceptionValue;
            stackTrace = error.stackTrace;
            valueLength = -1;
            break;
          default:
            in.skipField(tag);
        }
      }
    } catch (IOException e) {
      throw new ProtocolException(
          requestId, StatusCode.INTERNAL, "malformed reply: " + e.getMessage(), e);
    }
    if (requestId == ProtocolException.NO_REQUEST_ID) {
      requestId = 0; // proto3 leaves out a zero request_id
    }
    if (code == StatusCode.OK) {
      code = StatusCode.INTERNAL;
      message = "error reply with status OK";
    }
    return new ReplyEnvelope(
        (int) requestId,
        valueOffset,
        valueLength,
        code,
        message,
        exceptionClass,
        exceptionValue,
        stackTrace);
  }

  /** A reply whose value message is the {@code length} bytes at {@code offset} of its payload. */
  public static ReplyEnvelope value(int requestId, int offset, int length) {
    return new ReplyEnvelope(requestId, offset, length, null, "", "", null, null);
  }

  /**
   * An error reply of {@code code} (not OK) saying {@code message} (cut as a peer's text is), thrown
   * as {@code exceptionClass} by the implementation (empty if not a remote failure).
   */
  public static ReplyEnvelope error(
      int requestId, StatusCode code, String message, String exceptionClass) {
    return new ReplyEnvelope(
        requestId, 0, -1, code, cut(message), cut(exceptionClass), null, null);
  }

  /** An error text a peer sent, cut to {@link #MAX_ERROR_TEXT} characters (replies and streams alike). */
  static String cut(String text) {
    return text.length() <= MAX_ERROR_TEXT ? text : text.substring(0, MAX_ERROR_TEXT) + "...";
  }

  public int requestId() {
    return requestId;
  }

  /** Whether the reply is an error; if not, it carries a value (possibly null). */
  public boolean isError() {
    return errorCode != null;
  }

  public StatusCode errorCode() {
    return errorCode;
  }

  public String errorMessage() {
    return errorMessage;
  }

  /** Class name of the exception thrown by the implementation; empty when not a remote failure. */
  public String exceptionClass() {
    return exceptionClass;
  }

  /**
   * The fields of the exception thrown, a value (for an exception the method declares), or {@code
   * null} when the reply carries none.
   */
  public byte[] exceptionValue() {
    return exceptionValue;
  }

  /**
   * The stack trace of the exception the server's implementation threw, innermost frame first, or
   * {@code null} when it sent none. Never modify.
   */
  public StackTraceElement[] stackTrace() {
    return stackTrace;
  }

  /**
   * What {@code reader} reads from the value wrapper ({@link Payload#readValue}, {@code bulkBytes}
   * as there), or {@code null} when the value is absent (null or void).
   */
  public <T, E extends Exception> T readValue(
      Payload payload, boolean bulkBytes, Payload.ValueReader<T, E> reader) throws E {
    if (valueLength <= 0) {
      return null;
    }
    return payload.readValue(valueOffset, valueLength, bulkBytes, reader);
  }
}
