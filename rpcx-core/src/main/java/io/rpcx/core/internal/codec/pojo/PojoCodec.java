package io.rpcx.core.internal.codec.pojo;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.codec.MessageCodec;
import io.rpcx.core.internal.codec.ProtoWriter;
import io.rpcx.core.internal.codec.SchemaDescribed;
import io.rpcx.core.internal.codec.TypeSchema;
import io.rpcx.core.internal.codec.ValueCodec;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A POJO, record or declared exception as a protobuf message. Field {@code n} is the {@code n}th field in name order,
 * so numbering does not depend on the order reflection lists fields in; a peer with another version
 * of the class announces its own numbering in a SCHEMA frame and is read through a {@link
 * FieldMapping}. Null and zero fields are left out; on reading, a field the sender has but did not
 * send becomes null or zero, while a field the sender's class lacks keeps the value the receiver's
 * constructor gave it (records get null or zero).
 */
final class PojoCodec<T> extends MessageCodec<T> implements SchemaDescribed {
  private static final Object[] NO_ARGUMENTS = {};

  private final Class<T> type;
  private final Constructor<T> constructor;
  /**
   * For records and exceptions: constructor position of each field (fields are in name order).
   */
  private final int[] constructorPosition;
  /** For records and exceptions: the number of the constructor's parameters. */
  private final int parameterCount;
  /**
   * For an exception: the constructor parameter that takes the message of the failure ({@link
   * DecodeContext#exceptionMessage()}), or -1.
   */
  private final int messagePosition;
  private PojoField[] fields;
  /** Reads and writes the fields in generated code; {@code null} to go field by field. */
  private PojoAccessor accessor;
  private FieldMapping identity;
  /** How the sender numbers the fields, from its schema, or as this side does without one. */
  private final Function<TypeSchema, FieldMapping> mappingFromSchema =
      remote -> remote == null ? identity : FieldMapping.between(remote, this);
  private List<ValueCodec<?>> nestedCodecs;
  /** {@code seen} once every field was read, for classes of up to 64 fields. */
  private long allSeen;
  private TypeSchema schema;

  private PojoCodec(
      Class<T> type,
      String typeName,
      Constructor<T> constructor,
      int[] constructorPosition,
      int messagePosition) {
    super(typeName);
    this.type = type;
    this.constructor = constructor;
    this.constructorPosition = constructorPosition;
    this.parameterCount = constructor.getParameterCount();
    this.messagePosition = messagePosition;
  }

  /** A class, named {@code typeName} on the wire (its simple name, with type arguments). */
  static <T> PojoCodec<T> forClass(Class<T> type, String typeName, Constructor<T> noArguments) {
    return new PojoCodec<>(type, typeName, noArguments, null, -1);
  }

  /** A record, named {@code typeName} on the wire (its simple name, with type arguments). */
  static <T> PojoCodec<T> forRecord(
      Class<T> type, String typeName, Constructor<T> canonical, int[] positions) {
    return new PojoCodec<>(type, typeName, canonical, positions, -1);
  }

  /**
   * An exception a method declares, named by its simple name on the wire: its fields are read
   * from it as a class's are, and it is created as a record is, through {@code constructor}, which
   * takes field {@code i} (in name order) as parameter {@code positions[i]} and the failure's
   * message as parameter {@code messagePosition} (-1: none).
   */
  static <T> PojoCodec<T> forException(
      Class<T> type, Constructor<T> constructor, int[] positions, int messagePosition) {
    return new PojoCodec<>(type, type.getSimpleName(), constructor, positions, messagePosition);
  }

  /**
   * Completes the codec once its fields' codecs exist (they may refer back to this one).
   *
   * @param accessor the class's generated accessor, or {@code null}
   */
  void link(PojoField[] fields, PojoAccessor accessor) {
    this.fields = fields;
    this.accessor = accessor;
    if (accessor != null) {
      accessor.bind(this);
    }
    this.identity = FieldMapping.identity(fields.length);
    this.allSeen = fields.length >= Long.SIZE ? -1L : (1L << fields.length) - 1;
    List<TypeSchema.Field> described = new ArrayList<>();
    for (PojoField field : fields) {
      described.add(new TypeSchema.Field(field.name(), field.number(), field.codec().typeName()));
    }
    this.schema = new TypeSchema(typeName(), described);
    List<ValueCodec<?>> nested = new ArrayList<>();
    for (PojoField field : fields) {
      nested.add(field.codec());
    }
    this.nestedCodecs = List.copyOf(nested);
  }

  /** Whether fields are read and written by a generated {@link PojoAccessor} (for tests). */
  boolean hasAccessor() {
    return accessor != null;
  }

  int fieldCount() {
    return fields.length;
  }

  PojoField field(int index) {
    return fields[index];
  }

  /** How this side numbers the type's fields, as announced to peers. */
  @Override
  public TypeSchema schema() {
    return schema;
  }

  @Override
  public Class<?> describedClass() {
    return type;
  }

  @Override
  public List<ValueCodec<?>> nestedCodecs() {
    return nestedCodecs;
  }

  @Override
  protected void writePayload(ProtoWriter out, T value) throws IOException {
    out.enter(typeName());
    if (accessor != null) {
      accessor.writeFields(out, value);
    } else {
      for (PojoField field : fields) {
        field.write(out, value);
      }
    }
    out.exit();
  }

  @Override
  protected T readPayload(CodedInputStream in, DecodeContext context) throws IOException {
    FieldMapping mapping = context.derived(this, mappingFromSchema);
    if (accessor != null && constructorPosition == null) {
      T object = newInstance();
      long seen = accessor.readFields(object, in, context, mapping);
      if (seen != allSeen) {
        setAbsent(object, mapping, seen, null);
      }
      return object;
    }
    return constructorPosition == null
        ? readObject(in, context, mapping)
        : readRecord(in, context, mapping);
  }

  @SuppressWarnings("unchecked")
  private T newInstance() throws CodecException {
    try {
      return (T) accessor.newInstance();
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) { // as Constructor.newInstance would report it, checked ones included
      throw new CodecException("the constructor of " + type.getName() + " threw " + e, e);
    }
  }

  /** Sets the fields the sender has but did not send (as it leaves out null and zero). */
  private void setAbsent(T object, FieldMapping mapping, long seen, boolean[] seenWide)
      throws CodecException {
    for (int i = 0; i < fields.length; i++) {
      boolean read = seenWide == null ? (seen & (1L << i)) != 0 : seenWide[i];
      if (!read && mapping.senderHas(i)) {
        if (accessor != null) {
          accessor.setAbsent(object, i);
        } else {
          fields[i].setAbsent(object);
        }
      }
    }
  }

  private T readObject(CodedInputStream in, DecodeContext context, FieldMapping mapping)
      throws IOException {
    T object = instantiate(NO_ARGUMENTS);
    // Which fields were read: bits of a long, or an array for a class of more than 64 fields.
    long seen = 0;
    boolean[] seenWide = fields.length > Long.SIZE ? new boolean[fields.length] : null;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      }
      int index = localIndex(mapping, tag);
      if (index < 0) {
        in.skipField(tag);
        continue;
      }
      fields[index].readInto(object, in, tag, context);
      if (seenWide == null) {
        seen |= 1L << index;
      } else {
        seenWide[index] = true;
      }
    }
    if (seenWide != null || seen != allSeen) {
      setAbsent(object, mapping, seen, seenWide);
    }
    return object;
  }

  private T readRecord(CodedInputStream in, DecodeContext context, FieldMapping mapping)
      throws IOException {
    Object[] arguments = new Object[parameterCount];
    boolean[] seen = new boolean[fields.length];
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      }
      int index = localIndex(mapping, tag);
      if (index < 0) {
        in.skipField(tag);
        continue;
      }
      arguments[constructorPosition[index]] = fields[index].read(in, tag, context);
      seen[index] = true;
    }
    for (int i = 0; i < fields.length; i++) {
      if (!seen[i]) {
        arguments[constructorPosition[i]] = fields[i].codec().absentValue();
      }
    }
    if (messagePosition >= 0) {
      arguments[messagePosition] = context.exceptionMessage();
    }
    if (accessor != null) {
      try {
        @SuppressWarnings("unchecked")
        T record = (T) accessor.newRecord(arguments);
        return record;
      } catch (VirtualMachineError e) {
        throw e;
      } catch (Throwable e) { // as Constructor.newInstance would report it, checked ones included
        throw new CodecException("the constructor of " + type.getName() + " threw " + e, e);
      }
    }
    return instantiate(arguments);
  }

  /**
   * The failure of record component {@code index}'s accessor method, which threw {@code cause}
   * while the record was being written: the user's code failed, not the encoding.
   */
  CodecException accessorFailed(int index, Throwable cause) {
    return new CodecException(
        "the accessor method " + type.getSimpleName() + "." + fields[index].name()
            + "() of record " + type.getName() + " threw " + cause,
        cause);
  }

  /** The receiver field of a tag, or -1 to skip it; fails on a field of an incompatible type. */
  int localIndex(FieldMapping mapping, int tag) throws CodecException {
    int number = WireFormat.getTagFieldNumber(tag);
    int index = mapping.localIndex(number);
    if (index == FieldMapping.INCOMPATIBLE) {
      String name = mapping.remoteName(number);
      throw new CodecException(
          "field '" + name + "' of " + type.getName() + " has type '"
              + mapping.remoteType(number) + "' on the sending side but '"
              + fields[indexOf(name)].codec().typeName() + "' here");
    }
    return index;
  }

  private int indexOf(String name) {
    for (int i = 0; i < fields.length; i++) {
      if (fields[i].name().equals(name)) {
        return i;
      }
    }
    throw new IllegalStateException("no field " + name);
  }

  private T instantiate(Object[] arguments) throws CodecException {
    try {
      return constructor.newInstance(arguments);
    } catch (InvocationTargetException e) {
      throw new CodecException(
          "the constructor of " + type.getName() + " threw " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException | IllegalArgumentException e) {
      throw new CodecException("cannot create " + type.getName() + ": " + e, e);
    }
  }
}
