package io.rpcx.core.internal.codec;

/**
 * A codec whose values' field numbering the sender describes to the receiver in a SCHEMA frame
 * before first using the type on a connection (docs/PROTOCOL.md, 1.6): a POJO or record. The
 * receiver maps fields by name, so the two sides may have different versions of the class.
 */
public interface SchemaDescribed {

  /** How this side numbers the type's fields. */
  TypeSchema schema();

  /** The Java class whose values this codec carries. */
  Class<?> describedClass();
}
