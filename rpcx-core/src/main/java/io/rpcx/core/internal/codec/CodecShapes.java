package io.rpcx.core.internal.codec;

import com.google.protobuf.Descriptors;
import com.google.protobuf.Message;
import com.google.protobuf.MessageLite;

/**
 * What kind of value a codec carries, for describing a service (reflection, schema export): the
 * codec classes stay package-private, so this is the one place that tells them apart.
 */
public final class CodecShapes {
  private CodecShapes() {}

  /** The enum class {@code codec} carries, or {@code null} if it carries no enum. */
  public static Class<?> enumType(ValueCodec<?> codec) {
    return codec instanceof ScalarCodecs.EnumCodec ? ((ScalarCodecs.EnumCodec<?>) codec).type() : null;
  }

  /** Whether {@code codec} carries a protobuf message. */
  public static boolean isProtobufMessage(ValueCodec<?> codec) {
    return codec instanceof ProtobufMessageCodecs.ProtobufMessageCodec;
  }

  /**
   * The descriptor of the protobuf message {@code codec} carries, or {@code null} if it carries
   * none, or a lite message, which has no descriptor.
   */
  public static Descriptors.Descriptor protobufDescriptor(ValueCodec<?> codec) {
    if (!isProtobufMessage(codec)) {
      return null;
    }
    MessageLite instance = ((ProtobufMessageCodecs.ProtobufMessageCodec<?>) codec).defaultInstance();
    return instance instanceof Message ? ((Message) instance).getDescriptorForType() : null;
  }

  /** The class of the protobuf message {@code codec} carries, or {@code null}. */
  public static Class<?> protobufClass(ValueCodec<?> codec) {
    return isProtobufMessage(codec)
        ? ((ProtobufMessageCodecs.ProtobufMessageCodec<?>) codec).defaultInstance().getClass()
        : null;
  }
}
