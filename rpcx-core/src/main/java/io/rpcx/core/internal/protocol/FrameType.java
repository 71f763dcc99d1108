package io.rpcx.core.internal.protocol;

/**
 * Frame types (docs/PROTOCOL.md, "Frames"). A frame is a 4-byte big-endian length counting the
 * bytes after it, a type byte, a flags byte (reserved, zero), then the payload.
 */
public final class FrameType {
  /** Client to server: an {@code RPCXRequest}. */
  public static final byte REQUEST = 0x01;
  /** Server to client: an {@code RPCXReply}. */
  public static final byte REPLY = 0x02;
  /** Either way: 8 opaque bytes to be echoed in a {@link #PONG}. */
  public static final byte PING = 0x03;
  /** Answer to a {@link #PING}, echoing its 8 bytes. */
  public static final byte PONG = 0x04;
  /** Either way: a {@code GoAway}; the sender takes no new requests on this connection. */
  public static final byte GOAWAY = 0x05;
  /** Either way: a {@code Schema}, how the sender numbers the fields of POJO types. */
  public static final byte SCHEMA = 0x06;
  /** Either way: a {@code StreamMessage}, one element of a stream (docs/PROTOCOL.md, 5). */
  public static final byte STREAM_MESSAGE = 0x07;
  /** Either way: a {@code StreamCredit}, more messages the receiver of a stream may take. */
  public static final byte STREAM_CREDIT = 0x08;
  /** Either way: a {@code StreamEnd}; from the server, the end of a server stream's call. */
  public static final byte STREAM_END = 0x09;
  /** Client to server: a {@code StreamCancel}, the client abandons a stream's call. */
  public static final byte STREAM_CANCEL = 0x0A;

  /** Bytes of the length field. */
  public static final int LENGTH_FIELD_SIZE = 4;
  /** Bytes of the whole header: length, type, flags. */
  public static final int HEADER_SIZE = 6;
  /** Bytes after the length field that are not payload: type and flags. */
  public static final int TYPE_AND_FLAGS_SIZE = 2;
  /** Payload size of ping and pong frames. */
  public static final int PING_PAYLOAD_SIZE = 8;

  private FrameType() {}

  /** A readable name of a frame type byte. */
  public static String name(int type) {
    switch (type) {
      case REQUEST:
        return "REQUEST";
      case REPLY:
        return "REPLY";
      case PING:
        return "PING";
      case PONG:
        return "PONG";
      case GOAWAY:
        return "GOAWAY";
      case SCHEMA:
        return "SCHEMA";
      case STREAM_MESSAGE:
        return "STREAM_MESSAGE";
      case STREAM_CREDIT:
        return "STREAM_CREDIT";
      case STREAM_END:
        return "STREAM_END";
      case STREAM_CANCEL:
        return "STREAM_CANCEL";
      default:
        return String.format("unknown type 0x%02x", type & 0xff);
    }
  }
}
