package io.rpcx.core.internal.protocol;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import io.rpcx.core.StatusCode;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The payload of a GOAWAY frame, message {@code GoAway} of rpcx.proto: the sender takes no new
 * requests on the connection, with a status code and the reason. Encoded and parsed by hand, with
 * the {@code CodedInputStream}/{@code CodedOutputStream} of every supported protobuf-java release,
 * so that no generated class ties RPCX to one protobuf runtime. Immutable.
 */
public final class GoAway {
  static final int CODE = 1;
  static final int MESSAGE = 2;

  private final StatusCode code;
  private final String message;

  public GoAway(StatusCode code, String message) {
    this.code = code;
    this.message = message;
  }

  /** Why the connection goes away; {@link StatusCode#OK} for a graceful shutdown. */
  public StatusCode code() {
    return code;
  }

  /** The sender's reason, for people; may be empty. */
  public String message() {
    return message;
  }

  /** The payload, byte for byte what protoc's generated {@code GoAway} writes. */
  public byte[] encode() {
    int size =
        (code.number() != 0 ? CodedOutputStream.computeEnumSize(CODE, code.number()) : 0)
            + (message.isEmpty() ? 0 : CodedOutputStream.computeStringSize(MESSAGE, message));
    byte[] payload = new byte[size];
    CodedOutputStream out = CodedOutputStream.newInstance(payload);
    try {
      if (code.number() != 0) {
        out.writeEnum(CODE, code.number());
      }
      if (!message.isEmpty()) {
        out.writeString(MESSAGE, message);
      }
      out.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new IllegalStateException("GOAWAY payload of " + size + " bytes miscounted", e);
    }
    return payload;
  }

  /**
   * Reads a GOAWAY payload (the buffer's remaining bytes); unknown fields are skipped, an unknown
   * code reads as {@link StatusCode#INTERNAL}.
   *
   * @throws InvalidProtocolBufferException if the payload is not a well-formed {@code GoAway}
   */
  public static GoAway parse(ByteBuffer payload) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(payload);
    int code = 0;
    String message = "";
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      }
      switch (tag) {
        case (CODE << 3) | WireFormat.WIRETYPE_VARINT:
          code = in.readEnum();
          break;
        case (MESSAGE << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
          message = in.readStringRequireUtf8();
          break;
        default:
          Envelopes.skipField(in, tag);
      }
    }
    return new GoAway(StatusCode.forNumber(code), message);
  }
}
