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
  static final int CONNECTION_ONLY = 3;

  private final StatusCode code;
  private final String message;
  private final boolean connectionOnly;

  /** A GOAWAY of the sender itself: it stops, or cannot afford the connection. */
  public GoAway(StatusCode code, String message) {
    this(code, message, false);
  }

  /**
   * A GOAWAY; {@code connectionOnly} when only this connection goes away (its maximum age, idle)
   * and the sender keeps serving on others.
   */
  public GoAway(StatusCode code, String message, boolean connectionOnly) {
    this.code = code;
    this.message = message;
    this.connectionOnly = connectionOnly;
  }

  /** Why the connection goes away; {@link StatusCode#OK} for a graceful shutdown. */
  public StatusCode code() {
    return code;
  }

  /** The sender's reason, for people; may be empty. */
  public String message() {
    return message;
  }

  /**
   * Whether only this connection goes away: the server keeps serving, and the client may open
   * another connection to it at once. False from servers that predate the field.
   */
  public boolean connectionOnly() {
    return connectionOnly;
  }

  /** The payload, byte for byte what protoc's generated {@code GoAway} writes. */
  public byte[] encode() {
    int size =
        (code.number() != 0 ? CodedOutputStream.computeEnumSize(CODE, code.number()) : 0)
            + (message.isEmpty() ? 0 : CodedOutputStream.computeStringSize(MESSAGE, message))
            + (connectionOnly ? CodedOutputStream.computeBoolSize(CONNECTION_ONLY, true) : 0);
    byte[] payload = new byte[size];
    CodedOutputStream out = CodedOutputStream.newInstance(payload);
    try {
      if (code.number() != 0) {
        out.writeEnum(CODE, code.number());
      }
      if (!message.isEmpty()) {
        out.writeString(MESSAGE, message);
      }
      if (connectionOnly) {
        out.writeBool(CONNECTION_ONLY, true);
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
    boolean connectionOnly = false;
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
        case (CONNECTION_ONLY << 3) | WireFormat.WIRETYPE_VARINT:
          connectionOnly = in.readBool();
          break;
        default:
          Envelopes.skipField(in, tag);
      }
    }
    return new GoAway(StatusCode.forNumber(code), message, connectionOnly);
  }
}
