package io.rpcx.core.internal.protocol;

import com.google.protobuf.CodedOutputStream;
import io.rpcx.core.internal.codec.ProtoWriter;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.codec.Values;
import java.io.IOException;

/**
 * The exception of a {@code REMOTE_FAILURE} as its sender writes it into the {@code Error}: the
 * class name and, for an exception the method declares, its fields as a value ({@code
 * exception_value}), with the SCHEMA its types need; and its stack trace, from a server asked to
 * send it ({@code stack_trace}, its first {@link ReplyEnvelope#MAX_STACK_FRAMES} frames).
 * Immutable.
 */
public final class ThrownException {
  private final String className;
  private final ValueCodec<Object> codec;
  private final Object exception;
  private final byte[] schemas;
  private final StackTraceElement[] stackTrace;

  private ThrownException(
      String className,
      ValueCodec<Object> codec,
      Object exception,
      byte[] schemas,
      StackTraceElement[] stackTrace) {
    this.className = className;
    this.codec = codec;
    this.exception = exception;
    this.schemas = schemas;
    this.stackTrace = stackTrace;
  }

  /** An exception sent by its class name alone: one the method does not declare. */
  public static ThrownException named(String className) {
    return new ThrownException(className, null, null, null, null);
  }

  /**
   * A declared exception, sent as {@code className} with its fields, {@code exception} encoded by
   * {@code codec}, after the SCHEMA frame {@code schemas} (null if none is needed).
   */
  public static ThrownException withFields(
      String className, ValueCodec<Object> codec, Object exception, byte[] schemas) {
    return new ThrownException(className, codec, exception, schemas, null);
  }

  /**
   * The same exception with {@code stackTrace}, innermost frame first, of which the first {@link
   * ReplyEnvelope#MAX_STACK_FRAMES} are sent. Never modify the array afterwards.
   */
  public ThrownException withStackTrace(StackTraceElement[] stackTrace) {
    return new ThrownException(className, codec, exception, schemas, stackTrace);
  }

  /** The same exception without its fields: for when they cannot be encoded or sent. */
  public ThrownException withoutFields() {
    return codec == null ? this : new ThrownException(className, null, null, null, stackTrace);
  }

  /** The same exception without its stack trace: for when it would not fit in a frame. */
  public ThrownException withoutStackTrace() {
    return stackTrace == null
        ? this
        : new ThrownException(className, codec, exception, schemas, null);
  }

  /** Whether its fields are sent. */
  public boolean hasFields() {
    return codec != null;
  }

  /** Whether its stack trace is sent. */
  public boolean hasStackTrace() {
    return stackTrace != null;
  }

  public String className() {
    return className;
  }

  /** The SCHEMA payload to announce before it, or {@code null}. Never modify. */
  public byte[] schemas() {
    return schemas;
  }

  /**
   * Writes {@code Error.exception_class}, {@code Error.exception_value} and {@code
   * Error.stack_trace}.
   */
  void writeTo(ProtoWriter out) throws IOException {
    if (!className.isEmpty()) {
      out.writeTag(ReplyWriter.ERROR_EXCEPTION_CLASS, ValueCodec.LEN);
      out.writeString(className);
    }
    if (codec != null) {
      out.writeTag(ReplyWriter.ERROR_EXCEPTION_VALUE, ValueCodec.LEN);
      long mark = out.beginLengthDelimited();
      Values.write(out, codec, exception);
      out.endLengthDelimited(mark);
    }
    if (stackTrace != null) {
      for (int i = 0; i < Math.min(stackTrace.length, ReplyEnvelope.MAX_STACK_FRAMES); i++) {
        writeFrame(out, stackTrace[i]);
      }
    }
  }

  /**
   * Writes a {@code StackFrame} as protoc would, empty names and a line number of 0 left out; but
   * an empty file name is written, and only an unknown one (null) left out, to keep them apart. A
   * negative line number (unknown, or -2 for a native method) takes one byte as a {@code sint32}.
   */
  private static void writeFrame(ProtoWriter out, StackTraceElement frame) {
    out.writeTag(ReplyWriter.ERROR_STACK_TRACE, ValueCodec.LEN);
    long mark = out.beginLengthDelimited();
    if (!frame.getClassName().isEmpty()) {
      out.writeTag(ReplyWriter.FRAME_CLASS, ValueCodec.LEN);
      out.writeString(frame.getClassName());
    }
    if (!frame.getMethodName().isEmpty()) {
      out.writeTag(ReplyWriter.FRAME_METHOD, ValueCodec.LEN);
      out.writeString(frame.getMethodName());
    }
    if (frame.getFileName() != null) {
      out.writeTag(ReplyWriter.FRAME_FILE, ValueCodec.LEN);
      out.writeString(frame.getFileName());
    }
    if (frame.getLineNumber() != 0) {
      out.writeTag(ReplyWriter.FRAME_LINE, ValueCodec.VARINT);
      out.writeVarint32(CodedOutputStream.encodeZigZag32(frame.getLineNumber()));
    }
    out.endLengthDelimited(mark);
  }
}
