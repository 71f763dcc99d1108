package io.rpcx.benchmarks.codec;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.ExtensionRegistryLite;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import io.rpcx.benchmarks.grpc.ProtoMapper;
import io.rpcx.benchmarks.model.Info;
import io.rpcx.benchmarks.model.InfoRecord;
import io.rpcx.benchmarks.model.OrderInfo;
import io.rpcx.benchmarks.model.Payloads;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.codec.ByteArrayProtoWriter;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.model.StandardCodecs;
import io.rpcx.core.internal.transport.ByteBufProtoWriter;
import io.rpcx.core.internal.transport.NettyPayload;
import io.rpcx.core.internal.transport.Transports;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Type;
import java.util.List;

/**
 * The values the codec benchmark encodes and decodes — the seed types: one {@code OrderInfo}, a
 * list of 100, and the {@code Info} of seed 002 with and without its 1 MiB photo — each as RPCX
 * encodes it and as protobuf-java's generated code encodes the equivalent {@code .proto} message.
 * Both write a length-delimited message into the same byte array.
 */
public final class CodecShapes {
  private CodecShapes() {}

  /** The shapes, by the name used as a JMH parameter. */
  public static final List<String> NAMES = List.of("order", "orders", "info", "infoPhoto", "infoRecord");

  /** One way of encoding one value. */
  public interface Shape {
    /** Encodes the value into {@code buffer}; returns the number of bytes written. */
    int encode(byte[] buffer);

    /** Decodes {@code length} bytes written by {@link #encode}. */
    Object decode(byte[] buffer, int length);
  }

  /** The value of a shape, as a POJO. */
  public static Object pojo(String shape) {
    switch (shape) {
      case "order":
        return Payloads.order(1);
      case "orders":
        return Payloads.orders(Payloads.ORDER_LIST_SIZE);
      case "info":
        return Payloads.info(false);
      case "infoPhoto":
        return Payloads.info(true);
      case "infoRecord":
        return InfoRecord.of(Payloads.info(false));
      default:
        throw new IllegalArgumentException("unknown shape '" + shape + "'; known: " + NAMES);
    }
  }

  /** The declared Java type RPCX resolves its codec for. */
  static Type declaredType(String shape) {
    try {
      switch (shape) {
        case "order":
          return OrderInfo.class;
        case "orders":
          return Declared.class.getDeclaredField("orders").getGenericType();
        case "infoRecord":
          return InfoRecord.class;
        default:
          return Info.class;
      }
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Holds generic declarations. */
  private static final class Declared {
    List<OrderInfo> orders;
  }

  /** The equivalent generated protobuf message of a shape. */
  @SuppressWarnings("unchecked")
  public static MessageLite protobuf(String shape) {
    // protobuf has one message for the person, whichever Java form RPCX carries it in
    Object pojo = pojo(shape.equals("infoRecord") ? "info" : shape);
    switch (shape) {
      case "order":
        return ProtoMapper.toProto((OrderInfo) pojo);
      case "orders":
        return ProtoMapper.toProto((List<OrderInfo>) pojo);
      default:
        Info info = (Info) pojo;
        io.rpcx.benchmarks.grpc.proto.Info.Builder builder =
            io.rpcx.benchmarks.grpc.proto.Info.newBuilder()
                .setId(info.getId())
                .setFirstName(info.getFirstName())
                .setLastName(info.getLastName())
                .setAge(info.getAge())
                .setEmail(info.getEmail())
                .setPhone(info.getPhone())
                .setNewsletter(info.isNewsletter())
                .setLatitude(info.getLatitude())
                .setLongitude(info.getLongitude());
        if (info.getPhoto() != null) {
          builder.setPhoto(com.google.protobuf.ByteString.copyFrom(info.getPhoto()));
        }
        return builder.build();
    }
  }

  /** RPCX's codec for the shape. */
  public static Shape rpcx(String shape) {
    @SuppressWarnings("unchecked")
    ValueCodec<Object> codec =
        (ValueCodec<Object>) StandardCodecs.registry().codecFor(declaredType(shape));
    Object value = pojo(shape);
    return new Shape() {
      @Override
      public int encode(byte[] buffer) {
        try {
          ByteArrayProtoWriter out = new ByteArrayProtoWriter(buffer);
          codec.write(out, value);
          return out.position();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }

      @Override
      public Object decode(byte[] buffer, int length) {
        try {
          return codec.read(
              CodedInputStream.newInstance(buffer, 0, length), DecodeContext.withDefaults());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    };
  }

  /**
   * RPCX's codec as the transport runs it: written into a pooled direct buffer by {@link
   * ByteBufProtoWriter} and read back from it as a received value is ({@link
   * NettyPayload#readValue}).
   * The byte array arguments are not used; the shape keeps its own buffer.
   */
  public static Shape rpcxNetty(String shape) {
    @SuppressWarnings("unchecked")
    ValueCodec<Object> codec =
        (ValueCodec<Object>) StandardCodecs.registry().codecFor(declaredType(shape));
    Object value = pojo(shape);
    ByteBuf frame = Transports.ALLOCATOR.directBuffer(2 * 1024 * 1024);
    return new Shape() {
      @Override
      public int encode(byte[] unused) {
        try {
          frame.clear();
          codec.write(new ByteBufProtoWriter(frame), value);
          return frame.writerIndex();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }

      @Override
      public Object decode(byte[] unused, int length) {
        NettyPayload payload = new NettyPayload(frame.retainedDuplicate());
        try {
          return payload.readValue(
              0, length, codec.isBulkBytes(), in -> codec.read(in, DecodeContext.withDefaults()));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        } finally {
          payload.release();
        }
      }
    };
  }

  /**
   * protobuf-java's generated code for the equivalent message. The message keeps the size it
   * memoized on its first serialization, which favours protobuf: RPCX measures sizes each time.
   */
  public static Shape protobufShape(String shape) {
    MessageLite message = protobuf(shape);
    @SuppressWarnings("unchecked")
    Parser<MessageLite> parser = (Parser<MessageLite>) message.getParserForType();
    return new Shape() {
      @Override
      public int encode(byte[] buffer) {
        try {
          CodedOutputStream out = CodedOutputStream.newInstance(buffer);
          out.writeMessageNoTag(message);
          return out.getTotalBytesWritten();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }

      @Override
      public Object decode(byte[] buffer, int length) {
        try {
          CodedInputStream in = CodedInputStream.newInstance(buffer, 0, length);
          int messageLength = in.readRawVarint32();
          int limit = in.pushLimit(messageLength);
          MessageLite parsed = parser.parseFrom(in, ExtensionRegistryLite.getEmptyRegistry());
          in.popLimit(limit);
          return parsed;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    };
  }

  /** The shape encoded by {@code codec}: {@code rpcx}, {@code rpcx-netty} or {@code protobuf}. */
  public static Shape shape(String codec, String shape) {
    switch (codec) {
      case "rpcx":
        return rpcx(shape);
      case "rpcx-netty":
        return rpcxNetty(shape);
      case "protobuf":
        return protobufShape(shape);
      default:
        throw new IllegalArgumentException("unknown codec '" + codec + "' (rpcx, rpcx-netty or protobuf)");
    }
  }
}
