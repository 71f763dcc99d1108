package io.rpcx.core.internal.protocol;

import io.rpcx.core.internal.codec.ProtoWriter;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.codec.Values;
import java.io.IOException;

/**
 * The exception of a {@code REMOTE_FAILURE} as its sender writes it into the {@code Error}: the
 * class name and, for an exception the method declares, its fields as a value ({@code
 * exception_value}), with the SCHEMA its types need. Immutable.
 */
public final class ThrownException {
  private final String className;
  private final ValueCodec<Object> codec;
  private final Object exception;
  private final byte[] schemas;

  private ThrownException(
      String className, ValueCodec<Object> codec, Object exception, byte[] schemas) {
    this.className = className;
    this.codec = codec;
    this.exception = exception;
    this.schemas = schemas;
  }

  /** An exception sent by its class name alone: one the method does not declare. */
  public static ThrownException named(String className) {
    return new ThrownException(className, null, null, null);
  }

  /**
   * A declared exception, sent as {@code className} with its fields, {@code exception} encoded by
   * {@code codec}, after the SCHEMA frame {@code schemas} (null if none is needed).
   */
  public static ThrownException withFields(
      String className, ValueCodec<Object> codec, Object exception, byte[] schemas) {
    return new ThrownException(className, codec, exception, schemas);
  }

  /** The same exception without its fields: for when they cannot be encoded or sent. */
  public ThrownException withoutFields() {
    return codec == null ? this : named(className);
  }

  /** Whether its fields are sent. */
  public boolean hasFields() {
    return codec != null;
  }

  public String className() {
    return className;
  }

  /** The SCHEMA payload to announce before it, or {@code null}. Never modify. */
  public byte[] schemas() {
    return schemas;
  }

  /** Writes {@code Error.exception_class} and {@code Error.exception_value}. */
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
  }
}
