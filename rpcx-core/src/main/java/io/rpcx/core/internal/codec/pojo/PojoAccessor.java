package io.rpcx.core.internal.codec.pojo;

import com.google.protobuf.CodedInputStream;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.codec.ProtoWriter;
import java.io.IOException;

/**
 * Creates, writes and reads the objects of one POJO class or record in straight-line code: the
 * base of the class {@link GeneratedAccessors} makes per type, which is why it is public (the
 * generated class lives in the POJO's package). Where {@link PojoCodec} would make one virtual call
 * per field, the generated methods handle every field in one method, as protobuf's generated code
 * does, so the JIT compiles a type's fields as one unit. Classes use {@code newInstance}, {@code
 * readFields} and {@code setAbsent}; records {@code newRecord}; both {@code writeFields}.
 * Stateless once {@link PojoCodec#link} has bound it, before the codec is shared: thread-safe.
 */
public abstract class PojoAccessor {
  private PojoCodec<?> codec;

  protected PojoAccessor() {}

  /** Gives the accessor the codec whose field numbering it reads by. */
  final void bind(PojoCodec<?> codec) {
    this.codec = codec;
  }

  /** A new object, made by the class's no-argument constructor (classes only). */
  protected Object newInstance() {
    throw new UnsupportedOperationException("records are created whole: newRecord");
  }

  /**
   * A new record, made by its canonical constructor from {@code arguments} in constructor order,
   * primitives boxed (records only).
   */
  protected Object newRecord(Object[] arguments) {
    throw new UnsupportedOperationException("classes are created empty: newInstance");
  }

  /** Writes every field of {@code pojo}, in field number order, leaving out null and zero. */
  protected abstract void writeFields(ProtoWriter out, Object pojo) throws IOException;

  /**
   * Reads fields into {@code pojo} up to the end of the message, skipping the fields this side
   * lacks, and returns the bit mask of the fields read ({@code 1L << index}).
   */
  protected long readFields(
      Object pojo, CodedInputStream in, DecodeContext context, FieldMapping mapping)
      throws IOException {
    throw new UnsupportedOperationException("records are read into an array");
  }

  /**
   * Sets field {@code index} of {@code pojo} to the value of an absent field (null, zero or empty),
   * for a field the sender has but left out.
   */
  protected void setAbsent(Object pojo, int index) throws CodecException {
    throw new UnsupportedOperationException("records are created whole");
  }

  /**
   * The failure to report when the accessor method of record component {@code index} threw {@code
   * cause} while the record was being written: the generated code catches it right at that call.
   */
  protected final CodecException accessorFailed(Exception cause, int index) {
    return codec.accessorFailed(index, cause);
  }

  /** The receiver field index of {@code tag}, negative to skip it; fails on incompatible types. */
  protected final int localIndex(FieldMapping mapping, int tag) throws CodecException {
    return codec.localIndex(mapping, tag);
  }
}
