package io.rpcx.core.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.protocol.FrameType;
import io.rpcx.core.internal.protocol.GoAway;
import java.io.IOException;

/** Builds and reads control frames: ping, pong and goaway. */
public final class ControlFrames {
  private ControlFrames() {}

  /** A GOAWAY frame with {@code code} and {@code message}. */
  public static ByteBuf goAway(ByteBufAllocator allocator, StatusCode code, String message) {
    return goAway(allocator, new GoAway(code, message));
  }

  /** A GOAWAY frame of {@code goAway}. */
  public static ByteBuf goAway(ByteBufAllocator allocator, GoAway goAway) {
    byte[] payload = goAway.encode();
    ByteBuf frame = Frames.allocate(allocator, FrameType.GOAWAY, payload.length);
    frame.writeBytes(payload);
    return frame;
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
      return GoAway.parse(payload.nioBuffer());
    } catch (IOException e) {
      return new GoAway(StatusCode.INTERNAL, "malformed GOAWAY frame");
    }
  }
}
