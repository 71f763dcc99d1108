package io.rpcx.core.internal.codec.pojo;

import io.rpcx.core.internal.codec.pojo.ClassFiles.ClassWriter;
import io.rpcx.core.internal.codec.pojo.ClassFiles.Code;
import io.rpcx.core.internal.codec.pojo.ClassFiles.ConstantPool;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.codec.ProtoWriter;
import io.rpcx.core.internal.codec.ValueCodec;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes, for a POJO field, a subclass of its {@link PojoField} kind whose {@code write}, {@code
 * readInto} and {@code set} read and write the field with plain {@code getfield}/{@code putfield}
 * instead of {@link Field#get}, which checks the receiver's class on every call (7–14% of the CPU
 * of encoding and decoding lists of POJOs: docs/benchmarks/HISTORY.md, "No reflection per
 * field"). The subclass is a hidden class, a nestmate of the field's declaring class, so private
 * fields are reachable. Its methods have no
 * branches: each reads or writes the field and calls a final helper of the kind (for instance
 * {@code IntField.writeInt}) where the zero checks and tags live, which the JIT inlines.
 *
 * <p>Used for the fields a class's {@link GeneratedAccessors accessor} does not access itself
 * (those its superclasses declare) and for every field of a class without an accessor. Never for
 * records, whose components are read through their accessor methods.
 *
 * <p>Returns {@code null}, and the caller falls back to reflection, for a final field (the JVM
 * allows {@code putfield} on it only in a constructor), a primitive type other than {@code int},
 * {@code long}, {@code double}, {@code float} and {@code boolean}, and a class in another module
 * than RPCX's ({@link ClassFiles#fullPrivilegeLookup}).
 */
final class GeneratedFields {
  private static final Logger log = LoggerFactory.getLogger(GeneratedFields.class);

  private static final String PROTO_WRITER = "Lio/rpcx/core/internal/codec/ProtoWriter;";
  private static final String READ_ARGUMENTS =
      "(Lcom/google/protobuf/CodedInputStream;ILio/rpcx/core/internal/codec/DecodeContext;)";
  private static final String CONSTRUCTOR =
      "(Ljava/lang/reflect/Field;ILio/rpcx/core/internal/codec/ValueCodec;)V";

  private GeneratedFields() {}

  /** What differs between the kinds of field: the base class, helpers and JVM types. */
  enum Kind {
    INT(PojoField.IntField.class, "I", "writeInt", "readInt", "java/lang/Integer", "intValue", 1),
    LONG(PojoField.LongField.class, "J", "writeLong", "readLong", "java/lang/Long", "longValue", 2),
    DOUBLE(
        PojoField.DoubleField.class, "D", "writeDouble", "readDouble", "java/lang/Double",
        "doubleValue", 2),
    FLOAT(
        PojoField.FloatField.class, "F", "writeFloat", "readFloat", "java/lang/Float",
        "floatValue", 1),
    BOOLEAN(
        PojoField.BooleanField.class, "Z", "writeBoolean", "readBoolean", "java/lang/Boolean",
        "booleanValue", 1),
    STRING(
        PojoField.StringField.class, "Ljava/lang/String;", "writeString", "readString", null,
        null, 1),
    OBJECT(PojoField.ObjectField.class, "Ljava/lang/Object;", "writeObject", "read", null,
        null, 1);

    final Class<? extends PojoField> base;
    /** The type the helpers take and return. */
    final String valueDescriptor;
    final String writeHelper;
    final String readHelper;
    /** For primitives: the box {@code set} unboxes, and its unboxing method. */
    final String box;
    final String unbox;
    final int slots;

    Kind(
        Class<? extends PojoField> base, String valueDescriptor, String writeHelper,
        String readHelper, String box, String unbox, int slots) {
      this.base = base;
      this.valueDescriptor = valueDescriptor;
      this.writeHelper = writeHelper;
      this.readHelper = readHelper;
      this.box = box;
      this.unbox = unbox;
      this.slots = slots;
    }

    static Kind of(Class<?> type) {
      if (type == int.class) {
        return INT;
      }
      if (type == long.class) {
        return LONG;
      }
      if (type == double.class) {
        return DOUBLE;
      }
      if (type == float.class) {
        return FLOAT;
      }
      if (type == boolean.class) {
        return BOOLEAN;
      }
      if (type == String.class) {
        return STRING;
      }
      return type.isPrimitive() ? null : OBJECT;
    }
  }

  /** A generated field, or {@code null} to use reflection. */
  static PojoField forField(Field field, int number, ValueCodec<?> codec) {
    Kind kind = Kind.of(field.getType());
    if (kind == null || Modifier.isFinal(field.getModifiers())) {
      return null;
    }
    Class<?> owner = field.getDeclaringClass();
    try {
      MethodHandles.Lookup ownerLookup = ClassFiles.fullPrivilegeLookup(owner);
      if (ownerLookup == null) {
        return null;
      }
      // The field's name in the class name makes stack traces and profiles readable.
      byte[] bytes = classFile(owner.getName() + "$$RpcxField$" + field.getName(), field, kind);
      MethodHandles.Lookup hidden =
          ownerLookup.defineHiddenClass(bytes, true, MethodHandles.Lookup.ClassOption.NESTMATE);
      MethodType constructor =
          MethodType.methodType(void.class, Field.class, int.class, ValueCodec.class);
      Object instance =
          hidden.findConstructor(hidden.lookupClass(), constructor).invoke(field, number, codec);
      return kind.base.cast(instance);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      log.debug("field {} is accessed reflectively: {}", field, e.toString());
      return null;
    }
  }

  /** Whether {@code field} was generated rather than falling back to reflection (for tests). */
  static boolean isGenerated(PojoField field) {
    return field.getClass().isHidden();
  }

  /**
   * The class file of a field's subclass:
   *
   * <pre>
   * Sub(Field f, int n, ValueCodec c)       { super(f, n, c); }
   * write(ProtoWriter out, Object pojo)     { writeX(out, ((Owner) pojo).field); }
   * readInto(Object pojo, in, tag, context) { ((Owner) pojo).field = (Type) readX(in, tag, context); }
   * set(Object pojo, Object value)          { ((Owner) pojo).field = (Type or unboxed) value; }
   * </pre>
   *
   * No branches, so no stack map frames.
   */
  private static byte[] classFile(String name, Field field, Kind kind) {
    ClassWriter writer = new ClassWriter(name, kind.base);
    ConstantPool pool = writer.pool;
    int superClass = writer.superClass();
    int ownerClass = pool.classRef(ClassFiles.internalName(field.getDeclaringClass()));
    int fieldRef =
        pool.fieldRef(ownerClass, field.getName(), ClassFiles.descriptor(field.getType()));
    int superInit = pool.methodRef(superClass, "<init>", CONSTRUCTOR);
    int writeHelper =
        pool.methodRef(superClass, kind.writeHelper, "(" + PROTO_WRITER + kind.valueDescriptor + ")V");
    int readHelper =
        pool.methodRef(superClass, kind.readHelper, READ_ARGUMENTS + kind.valueDescriptor);
    int fieldClass =
        kind.box == null ? pool.classRef(ClassFiles.classRefName(field.getType())) : 0;
    int boxClass = kind.box != null ? pool.classRef(kind.box) : 0;
    int unbox = kind.box != null ? pool.methodRef(boxClass, kind.unbox, "()" + kind.valueDescriptor) : 0;

    writer.method(0x0001, "<init>", CONSTRUCTOR, 4, 4, new Code()
        .op(0x2a).op(0x2b).op(0x1c).op(0x2d) // aload_0, aload_1, iload_2, aload_3
        .op(0xb7).index(superInit) // invokespecial super.<init>
        .op(0xb1)); // return
    writer.method(0x0001, "write", "(" + PROTO_WRITER + "Ljava/lang/Object;)V", 2 + kind.slots, 3,
        new Code()
            .op(0x2a).op(0x2b).op(0x2c) // aload_0, aload_1, aload_2
            .op(0xc0).index(ownerClass) // checkcast Owner
            .op(0xb4).index(fieldRef) // getfield
            .op(0xb6).index(writeHelper) // invokevirtual writeX
            .op(0xb1));
    Code read = new Code()
        .op(0x2b).op(0xc0).index(ownerClass) // aload_1, checkcast Owner
        .op(0x2a).op(0x2c).op(0x1d).op(0x19).op(4) // aload_0, aload_2, iload_3, aload 4
        .op(0xb6).index(readHelper); // invokevirtual readX
    if (kind == Kind.OBJECT) {
      read.op(0xc0).index(fieldClass); // checkcast FieldType
    }
    writer.method(0x0001, "readInto", "(Ljava/lang/Object;" + READ_ARGUMENTS.substring(1) + "V",
        5, 5, read.op(0xb5).index(fieldRef).op(0xb1));
    Code setCode = new Code().op(0x2b).op(0xc0).index(ownerClass).op(0x2c); // aload_1, cast, aload_2
    if (kind.box != null) {
      setCode.op(0xc0).index(boxClass).op(0xb6).index(unbox); // checkcast Box, invokevirtual
    } else {
      setCode.op(0xc0).index(fieldClass); // checkcast FieldType
    }
    writer.method(0x0004, "set", "(Ljava/lang/Object;Ljava/lang/Object;)V", 1 + kind.slots, 3,
        setCode.op(0xb5).index(fieldRef).op(0xb1));
    return writer.toBytes();
  }
}
