package io.rpcx.core.internal.protocol;

import io.rpcx.core.internal.codec.ByteArrayProtoWriter;
import io.rpcx.core.internal.codec.ProtoWriter;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.codec.Values;
import java.io.IOException;
import java.util.Map;

/**
 * Writes {@code RPCXRequest} payloads straight into an output buffer, field by field, in the layout
 * of rpcx.proto, in one pass. The parts that never change for a method (service and method names,
 * argument type descriptors) are encoded once into byte arrays and copied per call.
 */
public final class RequestWriter {
  // The field numbers of RPCXRequest, Argument and a metadata entry (rpcx.proto).
  public static final int REQUEST_ID = 1;
  public static final int SERVICE = 2;
  public static final int METHOD = 3;
  public static final int ARGUMENTS = 4;
  public static final int TIMEOUT_MILLIS = 5;
  public static final int METADATA = 6;
  public static final int INITIAL_CREDIT = 7;
  public static final int ARGUMENT_TYPE = 1;
  public static final int ARGUMENT_VALUE = 2;
  public static final int ENTRY_KEY = 1;
  public static final int ENTRY_VALUE = 2;

  private RequestWriter() {}

  /** Fields 2 and 3 (service and method names), encoded once per method. */
  public static byte[] nameFields(String service, String method) {
    ByteArrayProtoWriter out = new ByteArrayProtoWriter();
    out.writeTag(SERVICE, ValueCodec.LEN);
    out.writeString(service);
    out.writeTag(METHOD, ValueCodec.LEN);
    out.writeString(method);
    return out.toByteArray();
  }

  /** Field 1 of an {@code Argument} (its type descriptor), encoded once per parameter. */
  public static byte[] typeField(String typeName) {
    ByteArrayProtoWriter out = new ByteArrayProtoWriter();
    out.writeTag(ARGUMENT_TYPE, ValueCodec.LEN);
    out.writeString(typeName);
    return out.toByteArray();
  }

  /**
   * Appends field 7, {@code initial_credit}, to a request {@link #write} wrote: the messages the
   * server may send at once on a server stream. Written after field 6, in field order, as protobuf
   * writes it; nothing for 0.
   */
  public static void writeInitialCredit(ProtoWriter out, int initialCredit) {
    if (initialCredit != 0) {
      out.writeTag(INITIAL_CREDIT, ValueCodec.VARINT);
      out.writeVarint32(initialCredit);
    }
  }

  /**
   * Writes a request payload. {@code sizeHints} holds each argument's length the last time (to
   * reserve the right number of length bytes); it is updated, racily, when a length's size class
   * changes, or may be {@code null}.
   */
  public static void write(
      ProtoWriter out,
      int requestId,
      byte[] nameFields,
      byte[][] typeFields,
      ValueCodec<Object>[] codecs,
      Object[] args,
      int timeoutMillis,
      Map<String, String> metadata,
      int[] sizeHints)
      throws IOException {
    out.writeTag(REQUEST_ID, ValueCodec.VARINT);
    out.writeVarint32(requestId);
    out.writeBytes(nameFields, 0, nameFields.length);
    for (int i = 0; i < codecs.length; i++) {
      int hint = sizeHints == null ? 0 : sizeHints[i];
      out.writeTag(ARGUMENTS, ValueCodec.LEN);
      long argument = out.beginLengthDelimited(hint);
      out.writeBytes(typeFields[i], 0, typeFields[i].length);
      if (!codecs[i].isAbsent(args[i])) {
        out.writeTag(ARGUMENT_VALUE, ValueCodec.LEN);
        long value = out.beginLengthDelimited(hint);
        Values.write(out, codecs[i], args[i]);
        out.endLengthDelimited(value);
      }
      int length = out.endLengthDelimited(argument);
      if (sizeHints != null && ProtoWriter.varint32Size(length) != ProtoWriter.varint32Size(hint)) {
        sizeHints[i] = length;
      }
    }
    if (timeoutMillis > 0) {
      out.writeTag(TIMEOUT_MILLIS, ValueCodec.VARINT);
      out.writeVarint32(timeoutMillis);
    }
    for (Map.Entry<String, String> entry : metadata.entrySet()) {
      out.writeTag(METADATA, ValueCodec.LEN);
      long mark = out.beginLengthDelimited();
      out.writeTag(ENTRY_KEY, ValueCodec.LEN);
      out.writeString(entry.getKey());
      out.writeTag(ENTRY_VALUE, ValueCodec.LEN);
      out.writeString(entry.getValue());
      out.endLengthDelimited(mark);
    }
  }
}
