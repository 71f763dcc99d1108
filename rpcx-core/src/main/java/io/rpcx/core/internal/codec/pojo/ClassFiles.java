package io.rpcx.core.internal.codec.pojo;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The little of the class file format that RPCX's generated field code needs: a constant pool,
 * methods with instructions, forward and backward branches, and the stack map frames that branch
 * targets require (JVMS 4.7.4; every frame is written as a full frame). Used by {@link
 * GeneratedFields} and {@link GeneratedAccessors}; the JDK's own class-file API arrives only in
 * later releases, and a bytecode library would be one more dependency for a few hundred bytes.
 */
final class ClassFiles {
  private static final Logger log = LoggerFactory.getLogger(ClassFiles.class);

  /** The verification type of an {@code int} (or boolean, byte, char, short) local. */
  static final int INTEGER = 1;

  /** The verification type of a {@code long} local: one frame entry for its two slots. */
  static final int LONG = 4;

  private ClassFiles() {}

  /** The verification type of a class, from its {@code CONSTANT_Class} index. */
  static int object(int classIndex) {
    return 7 << 16 | classIndex;
  }

  /**
   * A lookup with full privilege on {@code owner}, which defining a hidden nestmate needs, or
   * {@code null} (and the caller falls back to reflection) where the JVM does not grant it: for a
   * class in another module than RPCX's, a named module or the unnamed module of another class
   * loader, even when the package is open.
   */
  static MethodHandles.Lookup fullPrivilegeLookup(Class<?> owner) throws IllegalAccessException {
    MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(owner, MethodHandles.lookup());
    if (!lookup.hasFullPrivilegeAccess()) {
      log.debug("{} is accessed reflectively: it is in another module", owner);
      return null;
    }
    return lookup;
  }

  static String internalName(Class<?> type) {
    return type.getName().replace('.', '/');
  }

  /** The name a CONSTANT_Class entry uses: the internal name, or the descriptor of an array. */
  static String classRefName(Class<?> type) {
    return type.isArray() ? descriptor(type) : internalName(type);
  }

  static String descriptor(Class<?> type) {
    if (type.isArray()) {
      return internalName(type); // "[I", "[Ljava/lang/String;"
    }
    if (type.isPrimitive()) {
      return MethodType.methodType(type).toMethodDescriptorString().substring(2);
    }
    return "L" + internalName(type) + ";";
  }

  /** A class being written: its constant pool, fields and methods, then {@link #toBytes}. */
  static final class ClassWriter {
    final ConstantPool pool = new ConstantPool();
    private final int thisClass;
    private final int superClass;
    private final ByteArrayOutputStream fields = new ByteArrayOutputStream();
    private int fieldCount;
    private final ByteArrayOutputStream methods = new ByteArrayOutputStream();
    private int methodCount;

    ClassWriter(String name, Class<?> superClass) {
      this.thisClass = pool.classRef(name.replace('.', '/'));
      this.superClass = pool.classRef(internalName(superClass));
    }

    int thisClass() {
      return thisClass;
    }

    int superClass() {
      return superClass;
    }

    /** Adds a private final instance field. */
    void field(String name, String descriptor) {
      write(fields, o -> {
        o.writeShort(0x0002 | 0x0010); // ACC_PRIVATE | ACC_FINAL
        o.writeShort(pool.utf8(name));
        o.writeShort(pool.utf8(descriptor));
        o.writeShort(0); // attributes
      });
      fieldCount++;
    }

    /** Adds a method; {@code code} ends in a return or throw. */
    void method(
        int access, String name, String descriptor, int maxStack, int maxLocals, Code code) {
      byte[] instructions = code.toBytes();
      byte[] frames = code.stackMapTable();
      byte[] handlers = code.exceptionTable();
      int nameIndex = pool.utf8(name);
      int typeIndex = pool.utf8(descriptor);
      int codeName = pool.utf8("Code");
      int framesName = frames == null ? 0 : pool.utf8("StackMapTable");
      write(methods, o -> {
        o.writeShort(access);
        o.writeShort(nameIndex);
        o.writeShort(typeIndex);
        o.writeShort(1); // attributes: Code
        o.writeShort(codeName);
        int framesLength = frames == null ? 0 : 6 + frames.length;
        o.writeInt(10 + instructions.length + handlers.length + framesLength);
        o.writeShort(maxStack);
        o.writeShort(maxLocals);
        o.writeInt(instructions.length);
        o.write(instructions);
        o.write(handlers); // exception table, with its length
        if (frames == null) {
          o.writeShort(0);
        } else {
          o.writeShort(1);
          o.writeShort(framesName);
          o.writeInt(frames.length);
          o.write(frames);
        }
      });
      methodCount++;
    }

    byte[] toBytes() {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(2048);
      write(bytes, out -> {
        out.writeInt(0xCAFEBABE);
        out.writeShort(0);
        out.writeShort(61); // Java 17
        pool.writeTo(out);
        out.writeShort(0x0010 | 0x0020); // ACC_FINAL | ACC_SUPER
        out.writeShort(thisClass);
        out.writeShort(superClass);
        out.writeShort(0); // interfaces
        out.writeShort(fieldCount);
        fields.writeTo(out);
        out.writeShort(methodCount);
        methods.writeTo(out);
        out.writeShort(0); // class attributes
      });
      return bytes.toByteArray();
    }
  }

  /** A position in a method's instructions that branches jump to. */
  static final class Label {
    private int position = -1;
  }

  /** Instructions of one method, with labels resolved and frames collected as they are written. */
  static final class Code {
    private byte[] bytes = new byte[64];
    private int size;
    /** Branch offsets to fill in: where the offset goes, its width, the branch's own position. */
    private final List<int[]> fixups = new ArrayList<>();
    private final List<Label> fixupTargets = new ArrayList<>();
    private final List<Label> frameLabels = new ArrayList<>();
    private final List<int[]> frameLocals = new ArrayList<>();
    private final List<int[]> frameStacks = new ArrayList<>();
    /** Exception handlers: start, end and handler labels, and the caught class. */
    private final List<Label[]> handlerLabels = new ArrayList<>();
    private final List<Integer> handlerTypes = new ArrayList<>();

    Code op(int opcode) {
      ensure(1);
      bytes[size++] = (byte) opcode;
      return this;
    }

    /** A two-byte operand: a constant pool index, for instance. */
    Code index(int value) {
      return op(value >>> 8).op(value & 0xFF);
    }

    /** Pushes a small int constant ({@code iconst_n} or {@code bipush}). */
    Code pushInt(int value) {
      if (value >= -1 && value <= 5) {
        return op(0x03 + value);
      }
      if (value < Byte.MIN_VALUE || value > Byte.MAX_VALUE) {
        throw new IllegalArgumentException("not a byte: " + value);
      }
      return op(0x10).op(value & 0xFF);
    }

    /** A branch instruction ({@code goto}, {@code ifne}, ...) to {@code target}. */
    Code branch(int opcode, Label target) {
      int at = size;
      op(opcode);
      fixup(size, 2, at, target);
      return op(0).op(0);
    }

    /** {@code tableswitch} over {@code 0..targets.length - 1}, {@code otherwise} elsewhere. */
    Code tableSwitch(Label otherwise, Label[] targets) {
      int at = size;
      op(0xAA);
      while (size % 4 != 0) {
        op(0);
      }
      fixup(size, 4, at, otherwise);
      int4(0);
      int4(0);
      int4(targets.length - 1);
      for (Label target : targets) {
        fixup(size, 4, at, target);
        int4(0);
      }
      return this;
    }

    /**
     * Places {@code label} here, with the frame the verifier is to assume: these local variable
     * types (as {@link ClassFiles#INTEGER}, {@link ClassFiles#LONG} or {@link
     * ClassFiles#object}) and an empty operand stack.
     */
    Code mark(Label label, int... locals) {
      return mark(label, locals, new int[0]);
    }

    /**
     * Places {@code label} here, where an exception handler starts: the frame has these locals
     * and the caught exception ({@link ClassFiles#object} of its class) on the operand stack.
     */
    Code markHandler(Label label, int caughtClass, int... locals) {
      return mark(label, locals, new int[] {object(caughtClass)});
    }

    private Code mark(Label label, int[] locals, int[] stack) {
      label.position = size;
      frameLabels.add(label);
      frameLocals.add(locals);
      frameStacks.add(stack);
      return this;
    }

    /** Places {@code label} here, without a frame: the bounds of a range an exception handler covers. */
    Code place(Label label) {
      label.position = size;
      return this;
    }

    /**
     * Catches exceptions of class {@code caughtClass} (a constant pool class index) thrown by the
     * instructions from {@code start} up to {@code end}, in {@code handler}, which must be placed
     * with {@link #markHandler}.
     */
    Code handle(Label start, Label end, Label handler, int caughtClass) {
      handlerLabels.add(new Label[] {start, end, handler});
      handlerTypes.add(caughtClass);
      return this;
    }

    /** The exception table, with its length. */
    byte[] exceptionTable() {
      ByteArrayOutputStream table = new ByteArrayOutputStream();
      write(table, o -> {
        o.writeShort(handlerLabels.size());
        for (int i = 0; i < handlerLabels.size(); i++) {
          for (Label label : handlerLabels.get(i)) {
            if (label.position < 0) {
              throw new IllegalStateException("an exception range with a label never placed");
            }
            o.writeShort(label.position);
          }
          o.writeShort(handlerTypes.get(i));
        }
      });
      return table.toByteArray();
    }

    private void fixup(int position, int width, int branchAt, Label target) {
      fixups.add(new int[] {position, width, branchAt});
      fixupTargets.add(target);
    }

    private void int4(int value) {
      op(value >>> 24).op((value >>> 16) & 0xFF).op((value >>> 8) & 0xFF).op(value & 0xFF);
    }

    private void ensure(int more) {
      if (size + more > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
      }
    }

    byte[] toBytes() {
      byte[] out = Arrays.copyOf(bytes, size);
      for (int i = 0; i < fixups.size(); i++) {
        int[] fixup = fixups.get(i);
        Label target = fixupTargets.get(i);
        if (target.position < 0) {
          throw new IllegalStateException("a branch to a label never placed");
        }
        int offset = target.position - fixup[2];
        if (fixup[1] == 2 && (offset < Short.MIN_VALUE || offset > Short.MAX_VALUE)) {
          throw new IllegalStateException("branch too far: " + offset);
        }
        for (int b = 0; b < fixup[1]; b++) {
          out[fixup[0] + b] = (byte) (offset >>> (8 * (fixup[1] - 1 - b)));
        }
      }
      return out;
    }

    /** The StackMapTable attribute's body, or {@code null} for code without branch targets. */
    byte[] stackMapTable() {
      if (frameLabels.isEmpty()) {
        return null;
      }
      Integer[] order = new Integer[frameLabels.size()];
      for (int i = 0; i < order.length; i++) {
        order[i] = i;
      }
      Arrays.sort(order, Comparator.comparingInt(i -> frameLabels.get(i).position));
      ByteArrayOutputStream table = new ByteArrayOutputStream();
      write(table, o -> {
        o.writeShort(order.length);
        int previous = -1;
        for (int i : order) {
          int position = frameLabels.get(i).position;
          if (position == previous) {
            throw new IllegalStateException("two frames at " + position);
          }
          o.writeByte(255); // full_frame
          o.writeShort(position - previous - 1);
          writeTypes(o, frameLocals.get(i));
          writeTypes(o, frameStacks.get(i)); // operand stack
          previous = position;
        }
      });
      return table.toByteArray();
    }
  }

  /** Writes a count, then verification types as {@link #INTEGER}, {@link #LONG}, {@link #object}. */
  private static void writeTypes(DataOutputStream o, int[] types) throws IOException {
    o.writeShort(types.length);
    for (int type : types) {
      o.writeByte(type >>> 16 == 7 ? 7 : type);
      if (type >>> 16 == 7) {
        o.writeShort(type & 0xFFFF);
      }
    }
  }

  /** The constant pool of one class; entries are appended, never shared. */
  static final class ConstantPool {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
    private int count = 1;

    int utf8(String value) {
      return entry(1, o -> o.writeUTF(value));
    }

    int classRef(String internalName) {
      int name = utf8(internalName);
      return entry(7, o -> o.writeShort(name));
    }

    int fieldRef(int owner, String name, String descriptor) {
      return memberRef(9, owner, name, descriptor);
    }

    int methodRef(int owner, String name, String descriptor) {
      return memberRef(10, owner, name, descriptor);
    }

    private int memberRef(int tag, int owner, String name, String descriptor) {
      int nameIndex = utf8(name);
      int typeIndex = utf8(descriptor);
      int nameAndType =
          entry(
              12,
              o -> {
                o.writeShort(nameIndex);
                o.writeShort(typeIndex);
              });
      return entry(
          tag,
          o -> {
            o.writeShort(owner);
            o.writeShort(nameAndType);
          });
    }

    private int entry(int tag, Body body) {
      write(bytes, o -> {
        o.writeByte(tag);
        body.write(o);
      });
      return count++;
    }

    void writeTo(DataOutputStream target) throws IOException {
      target.writeShort(count);
      bytes.writeTo(target);
    }
  }

  private interface Body {
    void write(DataOutputStream out) throws IOException;
  }

  private static void write(ByteArrayOutputStream target, Body body) {
    try {
      DataOutputStream out = new DataOutputStream(target);
      body.write(out);
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
