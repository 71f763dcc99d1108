package io.rpcx.benchmarks.connections;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.rpcx.core.internal.codec.ByteArrayProtoWriter;
import io.rpcx.core.internal.codec.RawValueCodec;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.protocol.FrameType;
import io.rpcx.core.internal.protocol.GoAway;
import io.rpcx.core.internal.protocol.ProtocolException;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import io.rpcx.core.internal.protocol.RequestWriter;
import io.rpcx.core.internal.transport.ControlFrames;
import io.rpcx.core.internal.transport.FrameWrite;
import io.rpcx.core.internal.transport.NettyPayload;
import io.rpcx.core.internal.transport.PrefaceHandler;
import io.rpcx.core.internal.transport.WriteQueue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One connection of a {@link RawClient}, and the last handler of its pipeline: sends calls of
 * {@link ConnectionCostService}'s string methods and completes each with its reply, matched by
 * request id. Pending calls fail when the connection closes or the server sends GOAWAY.
 * Thread-safe: any thread may call; replies complete on the event loop.
 */
final class RawConnection extends ChannelInboundHandlerAdapter {

  /** A method of {@link ConnectionCostService}, its name fields encoded once. */
  enum Method {
    ECHO("echo"),
    HOLD("hold"),
    BLOCK("block");

    private final byte[] nameFields;

    Method(String name) {
      this.nameFields = RequestWriter.nameFields("conncost", name);
    }
  }

  private static final byte[][] STRING_TYPE = {RequestWriter.typeField("string")};

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static final ValueCodec<Object>[] STRING_CODEC =
      new ValueCodec[] {new RawValueCodec("string")};

  private final Channel channel;
  private final WriteQueue writes;
  private final Map<Integer, CompletableFuture<String>> pending = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();
  private final CompletableFuture<RawConnection> handshake = new CompletableFuture<>();
  private volatile Throwable closed;

  RawConnection(Channel channel) {
    this.channel = channel;
    this.writes = new WriteQueue(channel, true);
  }

  /** Completes once the server's preface was accepted. */
  CompletableFuture<RawConnection> handshake() {
    return handshake;
  }

  /**
   * Calls {@code method} with {@code text}; the server drops the call if it has not started
   * within {@code timeoutMillis} (0: no limit), as it does for {@code RpcxClient}'s calls.
   */
  CompletableFuture<String> call(Method method, String text, int timeoutMillis) {
    int id = ids.incrementAndGet();
    Object[] args = {stringValue(text)};
    // Encoded on the heap and handed over unpooled: a caller thread never touches the pooled
    // allocator, whose per-thread caches misbehave with a thousand callers on two cores
    // (docs/BENCHMARKS.md, "What a connection costs"); the event loop copies it on writing.
    ByteArrayProtoWriter payload = new ByteArrayProtoWriter();
    try {
      RequestWriter.write(
          payload, id, method.nameFields, STRING_TYPE, STRING_CODEC, args, timeoutMillis,
          Map.of(), null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ByteBuf frame = Unpooled.buffer(FrameType.HEADER_SIZE + payload.position());
    frame.writeInt(FrameType.TYPE_AND_FLAGS_SIZE + payload.position());
    frame.writeByte(FrameType.REQUEST);
    frame.writeByte(0);
    frame.writeBytes(payload.array(), 0, payload.position());
    CompletableFuture<String> reply = new CompletableFuture<>();
    pending.put(id, reply);
    Throwable gone = closed;
    if (gone != null) {
      frame.release();
      fail(id, gone);
    } else {
      writes.enqueue(new FrameWrite(frame));
    }
    return reply;
  }

  /** Calls {@code method} and waits for the reply, checking it is {@code text}. */
  void callAndCheck(Method method, String text, int timeoutMillis) {
    String reply = call(method, text, timeoutMillis).join();
    if (!text.equals(reply)) {
      throw new IllegalStateException(
          "conncost/" + method.name().toLowerCase(java.util.Locale.ROOT) + " answered '" + reply
              + "' to '" + text + "'");
    }
  }

  /** Calls sent and not answered yet. */
  int pendingCount() {
    return pending.size();
  }

  /** Closes the connection; pending calls fail. */
  CompletableFuture<Void> close() {
    CompletableFuture<Void> done = new CompletableFuture<>();
    channel.close().addListener(f -> done.complete(null));
    return done;
  }

  /** A {@code StringValue}: the value message of a string (docs/PROTOCOL.md, 2.2). */
  private static byte[] stringValue(String text) {
    ByteArrayProtoWriter out = new ByteArrayProtoWriter();
    out.writeTag(1, ValueCodec.LEN);
    out.writeString(text);
    return out.toByteArray();
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
    if (event == PrefaceHandler.HANDSHAKE_DONE) {
      handshake.complete(this);
    }
    super.userEventTriggered(ctx, event);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf frame = (ByteBuf) msg;
    byte type = frame.readByte();
    frame.skipBytes(1);
    switch (type) {
      case FrameType.REPLY:
        onReply(frame);
        break;
      case FrameType.PING:
        long data = frame.readLong();
        frame.release();
        writes.enqueue(new FrameWrite(ControlFrames.ping(channel.alloc(), true, data)));
        break;
      case FrameType.GOAWAY:
        GoAway goAway = ControlFrames.parseGoAway(frame);
        frame.release();
        failAll(
            new IllegalStateException(
                "the server sent GOAWAY (" + goAway.code() + "): " + goAway.message()));
        ctx.close();
        break;
      default:
        frame.release();
        break;
    }
  }

  private void onReply(ByteBuf frame) {
    NettyPayload payload = new NettyPayload(frame);
    try {
      ReplyEnvelope reply = ReplyEnvelope.parse(payload);
      CompletableFuture<String> call = pending.remove(reply.requestId());
      if (call == null) {
        return;
      }
      if (reply.isError()) {
        call.completeExceptionally(
            new IllegalStateException(reply.errorCode() + ": " + reply.errorMessage()));
        return;
      }
      call.complete(
          reply.readValue(
              payload,
              false,
              value -> {
                value.readTag();
                return value.readStringRequireUtf8();
              }));
    } catch (ProtocolException | IOException e) {
      failAll(e);
      channel.close();
    } finally {
      payload.release();
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    handshake.completeExceptionally(cause);
    failAll(cause);
    ctx.close();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    ClosedChannelException cause = new ClosedChannelException();
    handshake.completeExceptionally(cause);
    failAll(cause);
    super.channelInactive(ctx);
  }

  private void failAll(Throwable cause) {
    closed = cause;
    pending.keySet().forEach(id -> fail(id, cause));
  }

  private void fail(int id, Throwable cause) {
    CompletableFuture<String> call = pending.remove(id);
    if (call != null) {
      call.completeExceptionally(cause);
    }
  }
}
