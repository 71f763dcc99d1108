package io.rpcx.core.internal.protocol;

import com.google.protobuf.CodedOutputStream;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.SizeCache;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.codec.Values;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Writes {@code RPCXRequest} payloads straight into an output buffer, field by field, in the layout
 * of rpcx.proto. The parts that never change for a method (service and method names, argument type
 * descriptors) are encoded once into byte arrays and copied per call.
 */
public final class RequestCodec {
  static final int REQUEST_ID = 1;
  static final int SERVICE = 2;
  static final int METHOD = 3;
  static final int ARGUMENTS = 4;
  static final int TIMEOUT_MILLIS = 5;
  static final int METADATA = 6;
  static final int ARGUMENT_TYPE = 1;
  static final int ARGUMENT_VALUE = 2;
  static final int ENTRY_KEY = 1;
  static final int ENTRY_VALUE = 2;

  private RequestCodec() {}

  /** Fields 2 and 3 (service and method names), encoded once per method. */
  public static byte[] nameFields(String service, String method) {
    return encode(
        out -> {
          out.writeString(SERVICE, service);
          out.writeString(METHOD, method);
        });
  }

  /** Field 1 of an {@code Argument} (its type descriptor), encoded once per parameter. */
  public static byte[] typeField(String typeName) {
    return encode(out -> out.writeString(ARGUMENT_TYPE, typeName));
  }

  /** Size of the request payload. Reserves the slots that {@link #write} takes back. */
  public static int size(
      int requestId,
      byte[] nameFields,
      byte[][] typeFields,
      ValueCodec<Object>[] codecs,
      Object[] args,
      int timeoutMillis,
      Map<String, String> metadata,
      SizeCache sizes)
      throws CodecException {
    int size = 1 + CodedOutputStream.computeUInt32SizeNoTag(requestId) + nameFields.length;
    for (int i = 0; i < codecs.length; i++) {
      int argumentSlot = sizes.reserve();
      int valueSlot = sizes.reserve();
      int valueSize = Values.size(codecs[i], args[i], sizes);
      sizes.set(valueSlot, valueSize);
      int argumentSize = typeFields[i].length + lengthDelimitedFieldSize(valueSize);
      sizes.set(argumentSlot, argumentSize);
      size += 1 + CodedOutputStream.computeUInt32SizeNoTag(argumentSize) + argumentSize;
    }
    if (timeoutMillis > 0) {
      size += CodedOutputStream.computeUInt32Size(TIMEOUT_MILLIS, timeoutMillis);
    }
    if (!metadata.isEmpty()) {
      for (Map.Entry<String, String> entry : metadata.entrySet()) {
        int entrySize = entrySize(entry);
        size += 1 + CodedOutputStream.computeUInt32SizeNoTag(entrySize) + entrySize;
      }
    }
    return size;
  }

  /** Writes the request payload measured by {@link #size}. */
  public static void write(
      CodedOutputStream out,
      int requestId,
      byte[] nameFields,
      byte[][] typeFields,
      ValueCodec<Object>[] codecs,
      Object[] args,
      int timeoutMillis,
      Map<String, String> metadata,
      SizeCache sizes)
      throws IOException {
    out.writeUInt32(REQUEST_ID, requestId);
    out.writeRawBytes(nameFields);
    for (int i = 0; i < codecs.length; i++) {
      int argumentSize = sizes.next();
      int valueSize = sizes.next();
      out.writeTag(ARGUMENTS, ValueCodec.LEN);
      out.writeUInt32NoTag(argumentSize);
      out.writeRawBytes(typeFields[i]);
      if (valueSize > 0) {
        out.writeTag(ARGUMENT_VALUE, ValueCodec.LEN);
        out.writeUInt32NoTag(valueSize);
        Values.write(out, codecs[i], args[i], sizes);
      }
    }
    if (timeoutMillis > 0) {
      out.writeUInt32(TIMEOUT_MILLIS, timeoutMillis);
    }
    if (!metadata.isEmpty()) {
      for (Map.Entry<String, String> entry : metadata.entrySet()) {
        out.writeTag(METADATA, ValueCodec.LEN);
        out.writeUInt32NoTag(entrySize(entry));
        out.writeString(ENTRY_KEY, entry.getKey());
        out.writeString(ENTRY_VALUE, entry.getValue());
      }
    }
  }

  private static int entrySize(Map.Entry<String, String> entry) {
    return CodedOutputStream.computeStringSize(ENTRY_KEY, entry.getKey())
        + CodedOutputStream.computeStringSize(ENTRY_VALUE, entry.getValue());
  }

  /** Size of a length-delimited field with a 1-byte tag, or 0 for an empty one (omitted). */
  static int lengthDelimitedFieldSize(int payload) {
    return payload == 0 ? 0 : 1 + CodedOutputStream.computeUInt32SizeNoTag(payload) + payload;
  }

  interface Writer {
    void writeTo(CodedOutputStream out) throws IOException;
  }

  static byte[] encode(Writer writer) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      CodedOutputStream out = CodedOutputStream.newInstance(bytes);
      writer.writeTo(out);
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
