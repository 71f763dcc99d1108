package io.rpcx.core.internal.transport;

import com.google.protobuf.CodedOutputStream;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.protocol.FrameType;
import io.rpcx.core.internal.protocol.proto.GoAway;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Builds and reads control frames: ping, pong and goaway. */
public final class ControlFrames {
  private ControlFrames() {}

  /** A GOAWAY frame with {@code code} and {@code message}. */
  public static ByteBuf goAway(ByteBufAllocator allocator, StatusCode code, String message) {
    GoAway goAway =
        GoAway.newBuilder()
            .setCodeValue(code.number())
            .setMessage(message)
            .build();
    int size = goAway.getSerializedSize();
    ByteBuf frame = Frames.allocate(allocator, FrameType.GOAWAY, size);
    try {
      CodedOutputStream out = Frames.payloadOutput(frame, size);
      goAway.writeTo(out);
      Frames.finishPayload(frame, out, size);
      return frame;
    } catch (IOException e) {
      frame.release();
      throw new UncheckedIOException(e);
    }
  }

  /** A SCHEMA frame with a payload made by {@code SchemaFrames.encode}. */
  public static ByteBuf schema(ByteBufAllocator allocator, byte[] payload) {
    ByteBuf frame = Frames.allocate(allocator, FrameType.SCHEMA, payload.length);
    frame.writeBytes(payload);
    return frame;
  }

  /** A PING (or, with {@code pong}, a PONG) frame carrying {@code data}. */
  public static ByteBuf ping(ByteBufAllocator allocator, boolean pong, long data) {
    ByteBuf frame =
        Frames.allocate(
            allocator, pong ? FrameType.PONG : FrameType.PING, FrameType.PING_PAYLOAD_SIZE);
    frame.writeLong(data);
    return frame;
  }

  /** Parses a GOAWAY payload; a malformed one reads as an internal error. */
  public static GoAway parseGoAway(ByteBuf payload) {
    try {
      return GoAway.parseFrom(payload.nioBuffer());
    } catch (IOException e) {
      return GoAway.newBuilder()
          .setCodeValue(StatusCode.INTERNAL.number())
          .setMessage("malformed GOAWAY frame")
          .build();
    }
  }
}
