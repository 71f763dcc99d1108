package io.rpcx.core.internal.codec;

import java.lang.reflect.Type;

/**
 * Creates codecs for the declared types it knows. Factories are asked in order; a factory answers
 * {@code null} for a type that is not its own, and throws {@link UnsupportedTypeException} for a
 * type that is its own but cannot be carried (a raw {@code List}, a POJO without a usable
 * constructor), with the reason.
 */
public interface CodecFactory {

  /** Short description of the types this factory handles, listed when no factory handles a type. */
  String description();

  /** The codec for {@code type}, or {@code null} if {@code type} is not this factory's. */
  ValueCodec<?> create(Type type, CodecResolver resolver);

  /**
   * The codec of the exception class {@code type}, which a method declares (never a value's type):
   * it carries the exception's fields and rebuilds it on the receiving side; {@code null} if
   * exceptions are not this factory's.
   *
   * @throws UnsupportedTypeException if it cannot be carried or rebuilt, with the reason
   */
  default ValueCodec<?> createException(Class<?> type, CodecResolver resolver) {
    return null;
  }
}
