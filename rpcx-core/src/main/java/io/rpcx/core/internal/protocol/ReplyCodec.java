package io.rpcx.core.internal.protocol;

import com.google.protobuf.CodedOutputStream;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.SizeCache;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.codec.Values;
import java.io.IOException;

/** Writes {@code RPCXReply} payloads straight into an output buffer, in the layout of rpcx.proto. */
public final class ReplyCodec {
  static final int REQUEST_ID = 1;
  static final int VALUE = 2;
  static final int ERROR = 3;
  static final int ERROR_CODE = 1;
  static final int ERROR_MESSAGE = 2;
  static final int ERROR_EXCEPTION_CLASS = 3;

  private ReplyCodec() {}

  /**
   * Size of a successful reply carrying {@code value}; {@code codec} is null for a void method.
   * Reserves the slots that {@link #writeValue} takes back.
   */
  public static <T> int valueSize(int requestId, ValueCodec<T> codec, T value, SizeCache sizes)
      throws CodecException {
    int size = CodedOutputStream.computeUInt32Size(REQUEST_ID, requestId);
    if (codec != null) {
      int slot = sizes.reserve();
      int valueSize = Values.size(codec, value, sizes);
      sizes.set(slot, valueSize);
      size += RequestCodec.lengthDelimitedFieldSize(valueSize);
    }
    return size;
  }

  /** Writes the reply measured by {@link #valueSize}. */
  public static <T> void writeValue(
      CodedOutputStream out, int requestId, ValueCodec<T> codec, T value, SizeCache sizes)
      throws IOException {
    out.writeUInt32(REQUEST_ID, requestId);
    if (codec != null) {
      int valueSize = sizes.next();
      if (valueSize > 0) {
        out.writeTag(VALUE, ValueCodec.LEN);
        out.writeUInt32NoTag(valueSize);
        Values.write(out, codec, value, sizes);
      }
    }
  }

  /** Size of an error reply. */
  public static int errorSize(
      int requestId, StatusCode code, String message, String exceptionClass) {
    int error = errorBodySize(code, message, exceptionClass);
    return CodedOutputStream.computeUInt32Size(REQUEST_ID, requestId)
        + 1
        + CodedOutputStream.computeUInt32SizeNoTag(error)
        + error;
  }

  /** Writes the error reply measured by {@link #errorSize}. */
  public static void writeError(
      CodedOutputStream out,
      int requestId,
      StatusCode code,
      String message,
      String exceptionClass)
      throws IOException {
    out.writeUInt32(REQUEST_ID, requestId);
    out.writeTag(ERROR, ValueCodec.LEN);
    out.writeUInt32NoTag(errorBodySize(code, message, exceptionClass));
    out.writeEnum(ERROR_CODE, code.number());
    if (!message.isEmpty()) {
      out.writeString(ERROR_MESSAGE, message);
    }
    if (!exceptionClass.isEmpty()) {
      out.writeString(ERROR_EXCEPTION_CLASS, exceptionClass);
    }
  }

  private static int errorBodySize(StatusCode code, String message, String exceptionClass) {
    return CodedOutputStream.computeEnumSize(ERROR_CODE, code.number())
        + (message.isEmpty() ? 0 : CodedOutputStream.computeStringSize(ERROR_MESSAGE, message))
        + (exceptionClass.isEmpty()
            ? 0
            : CodedOutputStream.computeStringSize(ERROR_EXCEPTION_CLASS, exceptionClass));
  }
}
