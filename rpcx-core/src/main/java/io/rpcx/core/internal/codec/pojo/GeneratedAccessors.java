package io.rpcx.core.internal.codec.pojo;

import com.google.protobuf.CodedInputStream;
import io.rpcx.core.internal.codec.pojo.ClassFiles.ClassWriter;
import io.rpcx.core.internal.codec.pojo.ClassFiles.Code;
import io.rpcx.core.internal.codec.pojo.ClassFiles.ConstantPool;
import io.rpcx.core.internal.codec.pojo.ClassFiles.Label;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.codec.pojo.GeneratedFields.Kind;
import io.rpcx.core.internal.codec.ProtoWriter;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import static io.rpcx.core.internal.codec.pojo.ClassFiles.INTEGER;
import static io.rpcx.core.internal.codec.pojo.ClassFiles.LONG;
import static io.rpcx.core.internal.codec.pojo.ClassFiles.object;


/**
 * Makes a {@link PojoAccessor} per POJO class and record: a hidden class, nestmate of the POJO,
 * whose methods create the object without reflection, write every field in one straight-line
 * method and (for classes) read them in one loop over a {@code tableswitch}, as protobuf's
 * generated code does.
 *
 * <p>What it was measured to change (docs/benchmarks/HISTORY.md, "Codec work in this session"):
 * encoding a record went from {@code Method.invoke} per component to plain calls of its accessor
 * methods (133 to 89 ns for the {@code infoRecord} shape), and decoding small classes lost the
 * per-field virtual call (info 134 to 122 ns). Long lists of POJOs are bound by copying strings,
 * and did not change.
 *
 * <p>A class's field is accessed directly ({@code getfield}/{@code putfield} plus its kind's final
 * helper, such as {@code IntField.writeInt}, where the zero checks and tags live) when the class
 * itself declares it and its type is {@code int}, {@code long}, {@code double}, {@code float},
 * {@code boolean} or a reference type; a final field is written directly and read through its
 * {@link PojoField}, which may set it reflectively. A record's components of those types are
 * written through their accessor methods (which may compute, copy or redact a value, so the field
 * is never read behind their back), and a record is created by its canonical constructor; it is
 * read into an array by {@link PojoCodec}, as before. Other fields (inherited ones, {@code short},
 * {@code char}, {@code byte}) go through their {@link PojoField}. There is no accessor, and the
 * codec works field by field, for types of no fields or more than 64 and for classes in another
 * module than RPCX's ({@link ClassFiles#fullPrivilegeLookup}).
 */
final class GeneratedAccessors {
  private static final Logger log = LoggerFactory.getLogger(GeneratedAccessors.class);

  private static final String POJO_FIELD = ClassFiles.internalName(PojoField.class);
  private static final String PROTO_WRITER = ClassFiles.descriptor(ProtoWriter.class);
  private static final String INPUT = ClassFiles.descriptor(CodedInputStream.class);
  private static final String CONTEXT = ClassFiles.descriptor(DecodeContext.class);
  private static final String MAPPING = ClassFiles.descriptor(FieldMapping.class);

  /** The most fields an accessor handles: {@code readFields} reports them in a {@code long}. */
  static final int MAX_FIELDS = Long.SIZE;

  private GeneratedAccessors() {}

  /** Whether an accessor of {@code owner} reads and writes {@code field} itself. */
  static boolean accessesDirectly(Class<?> owner, Field field) {
    return field.getDeclaringClass() == owner && Kind.of(field.getType()) != null;
  }

  /**
   * The accessor of the POJO class {@code owner}, whose fields (in field number order) are {@code
   * fields}, described by {@code pojoFields}; {@code null} where none can be made.
   */
  static PojoAccessor forClass(Class<?> owner, List<Field> fields, PojoField[] pojoFields) {
    if (owner.isRecord() || fields.isEmpty() || fields.size() > MAX_FIELDS) {
      return null;
    }
    return define(owner, fields, pojoFields, null);
  }

  /**
   * The accessor of the record class {@code owner}: it writes the components' fields directly and
   * creates records through {@code canonical} without reflection; {@code fields} are the
   * components' fields in field number order. {@code null} where none can be made.
   */
  static PojoAccessor forRecord(
      Class<?> owner, Constructor<?> canonical, List<Field> fields, PojoField[] pojoFields) {
    if (fields.isEmpty() || fields.size() > MAX_FIELDS) {
      return null;
    }
    return define(owner, fields, pojoFields, canonical);
  }

  private static PojoAccessor define(
      Class<?> owner, List<Field> fields, PojoField[] pojoFields, Constructor<?> canonical) {
    try {
      MethodHandles.Lookup ownerLookup = ClassFiles.fullPrivilegeLookup(owner);
      if (ownerLookup == null) {
        return null;
      }
      byte[] bytes = classFile(owner, fields, canonical);
      MethodHandles.Lookup hidden =
          ownerLookup.defineHiddenClass(bytes, true, MethodHandles.Lookup.ClassOption.NESTMATE);
      Object accessor =
          hidden
              .findConstructor(
                  hidden.lookupClass(), MethodType.methodType(void.class, PojoField[].class))
              .invoke(pojoFields);
      return (PojoAccessor) accessor;
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      log.warn("{} is read and written field by field: {}", owner.getName(), e.toString());
      return null;
    }
  }

  /** The kind of a field the accessor accesses itself, or {@code null}. */
  private static Kind directKind(Class<?> owner, Field field) {
    return accessesDirectly(owner, field) ? Kind.of(field.getType()) : null;
  }

  /** The class that declares the helpers of {@code kind} (the object ones are on PojoField). */
  private static String helperOwner(Kind kind) {
    return kind == null || kind == Kind.OBJECT ? POJO_FIELD : ClassFiles.internalName(kind.base);
  }

  /**
   * The class file:
   *
   * <pre>
   * Accessor(PojoField[] f)        { f0 = (Kind0) f[0]; ... }
   * newInstance()                  { return new Owner(); }
   * writeFields(out, Object pojo)  { Owner o = (Owner) pojo; f0.writeX(out, o.a); ...;
   *                                  f5.write(out, o); (a field accessed through its PojoField) }
   * readFields(pojo, in, context, mapping) {
   *   long seen = 0;
   *   while (true) {
   *     int tag = in.readTag();
   *     if (tag == 0) return seen;
   *     int index = localIndex(mapping, tag);
   *     switch (index) {
   *       case 0: ((Owner) pojo).a = f0.readX(in, tag, context); seen |= 1L << 0; continue;
   *       ...
   *       default: in.skipField(tag);
   *     }
   *   }
   * }
   * </pre>
   */
  private static byte[] classFile(Class<?> owner, List<Field> fields, Constructor<?> canonical) {
    ClassWriter writer = new ClassWriter(owner.getName() + "$$RpcxAccessor", PojoAccessor.class);
    ConstantPool pool = writer.pool;
    int thisClass = writer.thisClass();
    int ownerClass = pool.classRef(ClassFiles.internalName(owner));
    int pojoFieldClass = pool.classRef(POJO_FIELD);
    int n = fields.size();
    int[] accessorField = new int[n];
    int[] fieldClass = new int[n];
    int[] pojoField = new int[n];
    // How writeFields gets a value: getfield, or for a record its component's accessor method,
    // which may compute, copy or redact what the field holds.
    int[] valueRead = new int[n];
    for (int i = 0; i < n; i++) {
      Field field = fields.get(i);
      Kind kind = directKind(owner, field);
      String helperOwner = helperOwner(kind);
      writer.field("f" + i, "L" + helperOwner + ";");
      accessorField[i] = pool.fieldRef(thisClass, "f" + i, "L" + helperOwner + ";");
      fieldClass[i] = pool.classRef(helperOwner);
      if (kind != null) {
        String type = ClassFiles.descriptor(field.getType());
        pojoField[i] = pool.fieldRef(ownerClass, field.getName(), type);
        valueRead[i] =
            canonical == null
                ? pojoField[i]
                : pool.methodRef(ownerClass, field.getName(), "()" + type);
      }
    }

    Code init = new Code().op(0x2a) // aload_0
        .op(0xb7).index(pool.methodRef(writer.superClass(), "<init>", "()V")); // invokespecial
    for (int i = 0; i < n; i++) {
      init.op(0x2a).op(0x2b).pushInt(i).op(0x32) // aload_0, aload_1, i, aaload
          .op(0xc0).index(fieldClass[i]) // checkcast
          .op(0xb5).index(accessorField[i]); // putfield
    }
    writer.method(0x0001, "<init>", "([L" + POJO_FIELD + ";)V", 3, 2, init.op(0xb1));

    if (canonical != null) {
      writer.method(0x0004, "newRecord", "([Ljava/lang/Object;)Ljava/lang/Object;", 4 + 2 * n, 2,
          newRecord(canonical, pool, ownerClass));
    } else {
      writer.method(0x0004, "newInstance", "()Ljava/lang/Object;", 2, 1, new Code()
          .op(0xbb).index(ownerClass).op(0x59) // new Owner, dup
          .op(0xb7).index(pool.methodRef(ownerClass, "<init>", "()V")) // invokespecial
          .op(0xb0)); // areturn
    }

    Code write = new Code().op(0x2c).op(0xc0).index(ownerClass).op(0x4e); // aload_2, cast, astore_3
    int writeThrough =
        pool.methodRef(pojoFieldClass, "write", "(" + PROTO_WRITER + "Ljava/lang/Object;)V");
    // A record's accessor method is user code: what it throws is caught right at its call and
    // reported as that method's failure; nothing else in writeFields is caught.
    int exceptionClass = pool.classRef("java/lang/Exception");
    Label[] accessorFailures = new Label[n];
    for (int i = 0; i < n; i++) {
      Kind kind = directKind(owner, fields.get(i));
      write.op(0x2a).op(0xb4).index(accessorField[i]).op(0x2b).op(0x2d); // this.fi, out, o
      if (kind == null) {
        write.op(0xb6).index(writeThrough); // invokevirtual PojoField.write
        continue;
      }
      if (canonical == null) {
        write.op(0xb4).index(valueRead[i]); // getfield o.field
      } else {
        Label start = new Label();
        Label end = new Label();
        accessorFailures[i] = new Label();
        write.place(start).op(0xb6).index(valueRead[i]).place(end) // invokevirtual o.field()
            .handle(start, end, accessorFailures[i], exceptionClass);
      }
      write.op(0xb6).index(pool.methodRef(fieldClass[i], kind.writeHelper,
          "(" + PROTO_WRITER + kind.valueDescriptor + ")V")); // invokevirtual writeX
    }
    write.op(0xb1); // return
    int accessorFailed =
        pool.methodRef(writer.superClass(), "accessorFailed",
            "(Ljava/lang/Exception;I)" + ClassFiles.descriptor(CodecException.class));
    int[] writeLocals = {
      object(thisClass), object(pool.classRef(ClassFiles.internalName(ProtoWriter.class))),
      object(pool.classRef("java/lang/Object")), object(ownerClass)
    };
    for (int i = 0; i < n; i++) {
      if (accessorFailures[i] != null) {
        write.markHandler(accessorFailures[i], exceptionClass, writeLocals)
            .op(0x2a).op(0x5f).pushInt(i) // aload_0, swap: this, exception, i
            .op(0xb6).index(accessorFailed).op(0xbf); // invokevirtual accessorFailed, athrow
      }
    }
    writer.method(0x0004, "writeFields", "(" + PROTO_WRITER + "Ljava/lang/Object;)V", 4, 4, write);

    if (canonical != null) {
      return writer.toBytes(); // records are read into an array and created whole
    }
    writer.method(0x0004, "setAbsent", "(Ljava/lang/Object;I)V", 4, 3,
        setAbsent(owner, fields, pool, thisClass, ownerClass, pojoFieldClass, accessorField,
            pojoField));

    writer.method(0x0004, "readFields",
        "(Ljava/lang/Object;" + INPUT + CONTEXT + MAPPING + ")J", 8, 9,
        readFields(owner, fields, pool, thisClass, ownerClass, pojoFieldClass, accessorField,
            fieldClass, pojoField));
    return writer.toBytes();
  }

  /** The code of {@code readFields}; locals: 5 {@code seen}, 7 {@code tag}, 8 {@code index}. */
  private static Code readFields(
      Class<?> owner, List<Field> fields, ConstantPool pool, int thisClass, int ownerClass,
      int pojoFieldClass, int[] accessorField, int[] fieldClass, int[] pojoField) {
    int n = fields.size();
    int[] base = {
      object(thisClass), object(pool.classRef("java/lang/Object")),
      object(pool.classRef(ClassFiles.internalName(CodedInputStream.class))),
      object(pool.classRef(ClassFiles.internalName(DecodeContext.class))),
      object(pool.classRef(ClassFiles.internalName(FieldMapping.class))), LONG
    };
    int[] withTag = append(base, INTEGER);
    int[] withIndex = append(withTag, INTEGER);
    int inputClass = pool.classRef(ClassFiles.internalName(CodedInputStream.class));
    int readTag = pool.methodRef(inputClass, "readTag", "()I");
    int skipField = pool.methodRef(inputClass, "skipField", "(I)Z");
    int localIndex =
        pool.methodRef(pool.classRef(ClassFiles.internalName(PojoAccessor.class)), "localIndex",
            "(" + MAPPING + "I)I");
    int readThrough =
        pool.methodRef(
            pojoFieldClass, "readInto", "(Ljava/lang/Object;" + INPUT + "I" + CONTEXT + ")V");

    Label loop = new Label();
    Label haveTag = new Label();
    Label skip = new Label();
    Label[] cases = new Label[n];
    for (int i = 0; i < n; i++) {
      cases[i] = new Label();
    }
    Code code = new Code().op(0x09).op(0x37).op(5) // lconst_0, lstore 5
        .mark(loop, base)
        .op(0x2c).op(0xb6).index(readTag).op(0x36).op(7) // tag = in.readTag()
        .op(0x15).op(7).branch(0x9a, haveTag) // iload 7, ifne
        .op(0x16).op(5).op(0xad) // lload 5, lreturn
        .mark(haveTag, withTag)
        .op(0x2a).op(0x19).op(4).op(0x15).op(7) // aload_0, aload 4, iload 7
        .op(0xb6).index(localIndex).op(0x36).op(8) // index = localIndex(mapping, tag)
        .op(0x15).op(8).tableSwitch(skip, cases);
    for (int i = 0; i < n; i++) {
      Field field = fields.get(i);
      Kind kind = directKind(owner, field);
      code.mark(cases[i], withIndex);
      if (kind == null || Modifier.isFinal(field.getModifiers())) {
        code.op(0x2a).op(0xb4).index(accessorField[i]) // this.fi
            .op(0x2b).op(0x2c).op(0x15).op(7).op(0x2d) // pojo, in, tag, context
            .op(0xb6).index(readThrough); // invokevirtual PojoField.readInto
      } else {
        code.op(0x2b).op(0xc0).index(ownerClass) // (Owner) pojo
            .op(0x2a).op(0xb4).index(accessorField[i]) // this.fi
            .op(0x2c).op(0x15).op(7).op(0x2d) // in, tag, context
            .op(0xb6).index(pool.methodRef(fieldClass[i], kind.readHelper,
                "(" + INPUT + "I" + CONTEXT + ")" + kind.valueDescriptor)); // readX
        if (kind == Kind.OBJECT) {
          code.op(0xc0).index(pool.classRef(ClassFiles.classRefName(field.getType())));
        }
        code.op(0xb5).index(pojoField[i]); // putfield
      }
      code.op(0x16).op(5).op(0x0a).pushInt(i).op(0x79).op(0x81).op(0x37).op(5) // seen |= 1L << i
          .branch(0xa7, loop); // goto
    }
    return code.mark(skip, withIndex)
        .op(0x2c).op(0x15).op(7).op(0xb6).index(skipField).op(0x57) // in.skipField(tag), pop
        .branch(0xa7, loop);
  }

  /**
   * The code of {@code newRecord(arguments)}: {@code return new Owner((A) arguments[0], ((Integer)
   * arguments[1]).intValue(), ...)}, arguments in constructor order, primitives boxed.
   */
  private static Code newRecord(Constructor<?> canonical, ConstantPool pool, int ownerClass) {
    Code code = new Code().op(0xbb).index(ownerClass).op(0x59); // new Owner, dup
    StringBuilder descriptor = new StringBuilder("(");
    Class<?>[] types = canonical.getParameterTypes();
    for (int j = 0; j < types.length; j++) {
      Class<?> type = types[j];
      descriptor.append(ClassFiles.descriptor(type));
      code.op(0x2b).pushInt(j).op(0x32); // aload_1, j, aaload
      if (type.isPrimitive()) {
        String box = ClassFiles.internalName(MethodType.methodType(type).wrap().returnType());
        int boxClass = pool.classRef(box);
        code.op(0xc0).index(boxClass) // checkcast Box
            .op(0xb6).index(pool.methodRef(boxClass, type.getName() + "Value",
                "()" + ClassFiles.descriptor(type))); // invokevirtual xValue
      } else if (type != Object.class) {
        code.op(0xc0).index(pool.classRef(ClassFiles.classRefName(type)));
      }
    }
    int init = pool.methodRef(ownerClass, "<init>", descriptor.append(")V").toString());
    return code.op(0xb7).index(init).op(0xb0); // invokespecial, areturn
  }

  /**
   * The code of {@code setAbsent(pojo, index)}: {@code switch (index) { case 0: ((Owner) pojo).a =
   * 0; return; case 1: ((Owner) pojo).b = (B) f1.absentValue(); return; case 2: f2.setAbsent(pojo);
   * return; ... }}.
   */
  private static Code setAbsent(
      Class<?> owner, List<Field> fields, ConstantPool pool, int thisClass, int ownerClass,
      int pojoFieldClass, int[] accessorField, int[] pojoField) {
    int n = fields.size();
    int[] frame = {object(thisClass), object(pool.classRef("java/lang/Object")), INTEGER};
    int absentValue = pool.methodRef(pojoFieldClass, "absentValue", "()Ljava/lang/Object;");
    int setThrough = pool.methodRef(pojoFieldClass, "setAbsent", "(Ljava/lang/Object;)V");
    Label done = new Label();
    Label[] cases = new Label[n];
    for (int i = 0; i < n; i++) {
      cases[i] = new Label();
    }
    Code code = new Code().op(0x1c).tableSwitch(done, cases); // iload_2
    for (int i = 0; i < n; i++) {
      Field field = fields.get(i);
      Kind kind = directKind(owner, field);
      code.mark(cases[i], frame);
      if (kind == null || Modifier.isFinal(field.getModifiers())) {
        code.op(0x2a).op(0xb4).index(accessorField[i]).op(0x2b) // this.fi, pojo
            .op(0xb6).index(setThrough).op(0xb1); // invokevirtual PojoField.setAbsent, return
        continue;
      }
      code.op(0x2b).op(0xc0).index(ownerClass); // (Owner) pojo
      switch (kind) {
        case INT:
        case BOOLEAN:
          code.op(0x03); // iconst_0
          break;
        case LONG:
          code.op(0x09); // lconst_0
          break;
        case DOUBLE:
          code.op(0x0e); // dconst_0
          break;
        case FLOAT:
          code.op(0x0b); // fconst_0
          break;
        default:
          code.op(0x2a).op(0xb4).index(accessorField[i]) // this.fi
              .op(0xb6).index(absentValue) // invokevirtual absentValue
              .op(0xc0).index(pool.classRef(ClassFiles.classRefName(field.getType())));
      }
      code.op(0xb5).index(pojoField[i]).op(0xb1); // putfield, return
    }
    return code.mark(done, frame).op(0xb1);
  }

  private static int[] append(int[] types, int type) {
    int[] longer = Arrays.copyOf(types, types.length + 1);
    longer[types.length] = type;
    return longer;
  }
}
