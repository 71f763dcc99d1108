package io.rpcx.core.internal.codec;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.ExtensionRegistryLite;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;

/**
 * Codecs of generated protobuf messages, encoded natively with their own generated code. The
 * message's parser is found once, from the class's {@code getDefaultInstance()}.
 */
final class ProtobufMessageCodecs implements CodecFactory {

  @Override
  public String description() {
    return "protobuf messages (generated MessageLite classes)";
  }

  @Override
  public ValueCodec<?> create(Type type, CodecResolver resolver) {
    if (!(type instanceof Class) || !MessageLite.class.isAssignableFrom((Class<?>) type)) {
      return null;
    }
    Class<?> messageClass = (Class<?>) type;
    if (messageClass.isInterface() || Modifier.isAbstract(messageClass.getModifiers())) {
      throw new UnsupportedTypeException(
          messageClass.getName(),
          "a protobuf message type must be a concrete generated class, not an interface or"
              + " abstract class");
    }
    MessageLite defaultInstance;
    try {
      defaultInstance = (MessageLite) messageClass.getMethod("getDefaultInstance").invoke(null);
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new UnsupportedTypeException(
          messageClass.getName(),
          "not a generated protobuf message: it has no public static getDefaultInstance()");
    }
    String name =
        defaultInstance instanceof Message
            ? ((Message) defaultInstance).getDescriptorForType().getFullName()
            : messageClass.getName();
    return new ProtobufMessageCodec<>(name, defaultInstance);
  }

  static final class ProtobufMessageCodec<M extends MessageLite> extends ValueCodec<M> {
    private final Parser<M> parser;
    private final MessageLite defaultInstance;

    @SuppressWarnings("unchecked")
    ProtobufMessageCodec(String typeName, MessageLite defaultInstance) {
      super(typeName, LEN);
      this.parser = (Parser<M>) defaultInstance.getParserForType();
      this.defaultInstance = defaultInstance;
    }

    /** The message's default instance: a {@code Message} carries its descriptor, a lite one not. */
    MessageLite defaultInstance() {
      return defaultInstance;
    }

    @Override
    public void write(ProtoWriter out, M value) throws IOException {
      out.writeMessage(value);
    }

    @Override
    public M read(CodedInputStream in, DecodeContext context) throws IOException {
      int length = in.readRawVarint32();
      int oldLimit = in.pushLimit(length);
      context.enter(typeName());
      M message;
      try {
        message = parser.parseFrom(in, ExtensionRegistryLite.getEmptyRegistry());
        in.checkLastTagWas(0);
      } catch (InvalidProtocolBufferException e) {
        throw new CodecException("invalid " + typeName() + ": " + e.getMessage(), e);
      }
      context.exit();
      in.popLimit(oldLimit);
      return message;
    }
  }
}
