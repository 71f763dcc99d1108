package io.rpcx.core.internal.codec;

import java.lang.reflect.Type;

/** Resolves the codecs of the types nested in another type, for use by {@link CodecFactory}. */
public interface CodecResolver {

  /**
   * The codec for {@code type}, which appears in the type being resolved as {@code role} (for
   * example {@code "element of java.util.List<java.lang.Object>"} or {@code "field 'items' of
   * OrderInfo"}); the role is used in the error if the type is unsupported.
   */
  ValueCodec<?> resolve(Type type, String role);

  /**
   * Makes {@code codec} the answer for {@code type} while its own nested types are being resolved,
   * so that recursive types (a tree node holding a list of nodes) resolve to themselves.
   */
  void registerInProgress(Type type, ValueCodec<?> codec);
}
