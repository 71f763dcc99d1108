package io.rpcx.core.internal.call;

import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.codec.Values;
import io.rpcx.core.internal.model.MethodModel;
import java.io.IOException;

/**
 * Decodes the arguments of an RPCX request against the method's declared parameters. Each argument's type
 * descriptor must match the declared one before its bytes are read, so a client built against a
 * different signature gets a clear error instead of a misread value.
 */
final class ArgumentDecoder {
  private ArgumentDecoder() {}

  /**
   * The arguments of {@code envelope} for {@code method}.
   *
   * @throws CodecException with a message naming the argument, if they do not fit the method
   */
  static Object[] decode(
      MethodModel method,
      RequestEnvelope envelope,
      int maxDepth,
      PeerSchemas schemas)
      throws CodecException {
    int count = method.parameterCount();
    if (envelope.argumentCount() != count) {
      throw new CodecException(
          method.displayName() + " takes " + count + (count == 1 ? " argument" : " arguments")
              + " but the request has " + envelope.argumentCount());
    }
    ValueCodec<Object>[] codecs = method.parameterCodecs();
    Object[] args = new Object[count];
    DecodeContext context = new DecodeContext(maxDepth, schemas);
    for (int i = 0; i < count; i++) {
      if (!envelope.typeEquals(i, method.parameterTypeName(i))) {
        throw new CodecException(
            describe(method, i) + ": the client sent type '" + envelope.typeName(i)
                + "' but the server expects '" + codecs[i].typeName() + "'");
      }
      if (i == method.streamParameterIndex()) {
        if (envelope.hasValue(i)) {
          throw new CodecException(
              describe(method, i) + " is a stream (" + codecs[i].typeName() + "): its elements"
                  + " come in STREAM_MESSAGE frames, and its argument in the request has no value");
        }
        continue; // the caller puts the stream there
      }
      ValueCodec<Object> codec = codecs[i];
      Object value;
      try {
        value = envelope.readValue(i, codec.isBulkBytes(), in -> Values.read(codec, in, context));
      } catch (IOException e) {
        throw new CodecException("cannot decode " + describe(method, i) + ": " + e.getMessage(), e);
      } catch (RuntimeException e) {
        throw new CodecException("cannot decode " + describe(method, i) + ": " + e, e);
      }
      if (value == null) {
        if (method.isPrimitiveParameter(i)) {
          throw new CodecException(
              describe(method, i) + " is null, but the parameter is a primitive "
                  + method.descriptor().javaMethod().getParameterTypes()[i].getName());
        }
        value = codecs[i].absentValue();
      }
      args[i] = value;
    }
    return args;
  }

  private static String describe(MethodModel method, int index) {
    return "argument " + index + " (" + method.parameterName(index) + ") of "
        + method.displayName();
  }
}
