package io.rpcx.core.internal.grpc;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.codec.ProtoWriter;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.model.MethodModel;
import java.io.IOException;

/**
 * A method's arguments as the fields of its gRPC request message (docs/GRPC.md, "Messages"): field
 * {@code i + 1} holds argument {@code i}, written by the argument's codec exactly as RPCX writes it
 * in a value message, absent for null; a stream argument's field holds one element per message. A
 * reply is a value message (field 1), as in RPCX's own protocol ({@code Values}). Fields a method
 * does not know are skipped, as protobuf skips unknown fields.
 */
public final class GrpcMessages {
  private GrpcMessages() {}

  /**
   * The arguments in a request message of {@code model}'s method; a stream argument's place is
   * left null (its elements come in the stream's messages).
   *
   * @throws CodecException naming the argument, if the message does not fit the method
   */
  public static Object[] readArguments(
      MethodModel model, CodedInputStream in, DecodeContext context) throws CodecException {
    ValueCodec<Object>[] codecs = model.parameterCodecs();
    int stream = model.streamParameterIndex();
    Object[] args = new Object[codecs.length];
    try {
      while (true) {
        int tag = in.readTag();
        if (tag == 0) {
          break;
        }
        int index = WireFormat.getTagFieldNumber(tag) - 1;
        if (index < 0 || index >= codecs.length) {
          in.skipField(tag);
          continue;
        }
        if (index == stream) {
          throw new CodecException(
              describe(model, index) + " is a stream: the first message holds the other"
                  + " arguments, and each message after it one element");
        }
        args[index] = read(codecs[index], in, tag, context, model, index);
      }
    } catch (IOException e) {
      throw new CodecException(
          "malformed request message of " + model.displayName() + ": " + e.getMessage(), e);
    }
    for (int i = 0; i < args.length; i++) {
      if (args[i] != null || i == stream) {
        continue;
      }
      if (model.isPrimitiveParameter(i)) {
        throw new CodecException(
            describe(model, i) + " is absent, but the parameter is a primitive "
                + model.descriptor().javaMethod().getParameterTypes()[i].getName()
                + " (the field must be set)");
      }
      args[i] = codecs[i].absentValue();
    }
    return args;
  }

  /**
   * One element of {@code model}'s stream argument, from a message of the request stream: its
   * field, or the element type's absent value (null) when the field is not set.
   *
   * @throws CodecException if the element cannot be decoded
   */
  public static Object readElement(
      MethodModel model, CodedInputStream in, DecodeContext context) throws CodecException {
    int index = model.streamParameterIndex();
    ValueCodec<Object> codec = model.streamElementCodec();
    Object element = null;
    try {
      while (true) {
        int tag = in.readTag();
        if (tag == 0) {
          break;
        }
        if (WireFormat.getTagFieldNumber(tag) == index + 1) {
          element = read(codec, in, tag, context, model, index);
        } else {
          in.skipField(tag);
        }
      }
    } catch (IOException e) {
      throw new CodecException(
          "malformed stream message of " + model.displayName() + ": " + e.getMessage(), e);
    }
    return element == null ? codec.absentValue() : element;
  }

  /** Writes {@code args} as the request message of {@code model}'s method (its stream argument not). */
  public static void writeArguments(ProtoWriter out, MethodModel model, Object[] args)
      throws IOException {
    ValueCodec<Object>[] codecs = model.parameterCodecs();
    int stream = model.streamParameterIndex();
    for (int i = 0; i < codecs.length; i++) {
      if (i != stream) {
        codecs[i].writeField(out, i + 1, args[i]);
      }
    }
  }

  /** Writes {@code element} as a message of the request stream of {@code model}'s method. */
  public static void writeElement(ProtoWriter out, MethodModel model, Object element)
      throws IOException {
    model.streamElementCodec().writeField(out, model.streamParameterIndex() + 1, element);
  }

  /**
   * Whether the request stream of {@code model}'s method starts with a message of its other
   * arguments: it has arguments besides the stream.
   */
  public static boolean streamStartsWithArguments(MethodModel model) {
    return model.parameterCount() > 1;
  }

  private static Object read(
      ValueCodec<Object> codec,
      CodedInputStream in,
      int tag,
      DecodeContext context,
      MethodModel model,
      int index)
      throws CodecException {
    try {
      return codec.readField(in, tag, context);
    } catch (CodecException e) {
      throw new CodecException("cannot decode " + describe(model, index) + ": " + e.getMessage(), e);
    } catch (IOException | RuntimeException e) {
      throw new CodecException("cannot decode " + describe(model, index) + ": " + e, e);
    }
  }

  private static String describe(MethodModel model, int index) {
    return "argument " + index + " (" + model.parameterName(index) + ") of " + model.displayName();
  }
}
