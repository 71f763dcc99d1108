package io.rpcx.core.internal.model;

import com.google.protobuf.CodedInputStream;
import io.rpcx.core.internal.codec.CodecRegistry;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.codec.Schemas;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.codec.Values;
import io.rpcx.core.internal.protocol.SchemaFrames;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checked exceptions a method declares, and how each travels with a {@code REMOTE_FAILURE}:
 * its fields, encoded by the codec of its class as a POJO's are, and rebuilt on the receiving side
 * through its constructor (docs/VALUES.md, "Exceptions"). The classes that can travel are those
 * reachable from the {@code throws} clause: the declared ones and, for a sealed one, its permitted
 * subclasses; a failure naming any other class is never rebuilt, whatever the name. Built once per
 * method at start-up, where a class that could not be rebuilt is refused; immutable.
 */
public final class DeclaredExceptions {
  private static final MethodType STRING_CONSTRUCTOR =
      MethodType.methodType(void.class, String.class);

  static final DeclaredExceptions NONE = new DeclaredExceptions(List.of(), List.of());

  /** The classes of the {@code throws} clause, checked ones only. */
  private final List<Class<?>> declared;
  /** Every class that can travel, by name and by simple name (unique: the wire names types so). */
  private final Map<String, Thrown> byName;
  private final Thrown[] reachable;

  private DeclaredExceptions(List<Class<?>> declared, List<Thrown> reachable) {
    this.declared = List.copyOf(declared);
    this.reachable = reachable.toArray(new Thrown[0]);
    Map<String, Thrown> names = new HashMap<>();
    for (Thrown thrown : reachable) {
      names.put(thrown.type.getName(), thrown);
      names.putIfAbsent(thrown.type.getSimpleName(), thrown);
    }
    this.byName = Map.copyOf(names);
  }

  /**
   * The exceptions {@code declared} by a method (checked ones), with their codecs from {@code
   * codecs}.
   *
   * @throws io.rpcx.core.internal.codec.UnsupportedTypeException if one cannot be carried or
   *     rebuilt, naming it and why
   */
  static DeclaredExceptions of(List<Class<?>> declared, CodecRegistry codecs) {
    if (declared.isEmpty()) {
      return NONE;
    }
    Set<Class<?>> classes = new LinkedHashSet<>();
    for (Class<?> type : declared) {
      collect(type, classes);
    }
    List<Thrown> reachable = new ArrayList<>();
    for (Class<?> type : classes) {
      @SuppressWarnings("unchecked")
      ValueCodec<Object> codec = (ValueCodec<Object>) codecs.exceptionCodecFor(type);
      reachable.add(new Thrown(type, codec));
    }
    return new DeclaredExceptions(declared, reachable);
  }

  /** {@code type} if it can be created, and the permitted subclasses of a sealed one. */
  private static void collect(Class<?> type, Set<Class<?>> classes) {
    if (type.isSealed()) {
      for (Class<?> permitted : type.getPermittedSubclasses()) {
        collect(permitted, classes);
      }
      if (java.lang.reflect.Modifier.isAbstract(type.getModifiers())) {
        return; // its subclasses are what is thrown
      }
    }
    classes.add(type);
  }

  /** The checked exception classes of the {@code throws} clause. */
  public List<Class<?>> classes() {
    return declared;
  }

  /** Every class that can travel: the declared ones, and the members of sealed ones. */
  public List<Thrown> all() {
    return List.of(reachable);
  }

  /**
   * How {@code exception}, thrown by the implementation, travels: as the most specific class that
   * can travel of those it is an instance of (a subclass the client does not know arrives as the
   * declared class it extends); {@code null} if it is none of them.
   */
  public Thrown of(Throwable exception) {
    Thrown best = null;
    for (Thrown candidate : reachable) {
      if (candidate.type.isInstance(exception)
          && (best == null || best.type.isAssignableFrom(candidate.type))) {
        best = candidate;
      }
    }
    return best;
  }

  /**
   * The class named {@code className} by a failure, if it can travel; else {@code null}. A class of
   * that simple name counts: as for a POJO, the package does not matter, so an exception class
   * moved to another package on one side still arrives as itself.
   */
  public Thrown named(String className) {
    Thrown thrown = byName.get(className);
    if (thrown == null) {
      int simple = Math.max(className.lastIndexOf('.'), className.lastIndexOf('$')) + 1;
      thrown = byName.get(className.substring(simple));
    }
    return thrown;
  }

  /** One exception class that travels: its codec, the SCHEMA of its types, how it is rebuilt. */
  public static final class Thrown {
    private final Class<?> type;
    private final ValueCodec<Object> codec;
    /** The SCHEMA payload of the exception's type and the POJO types its fields reach. */
    private final byte[] schemas;
    /** Its public {@code (String)} constructor, for a peer that sends no fields; or null. */
    private final MethodHandle messageConstructor;

    Thrown(Class<?> type, ValueCodec<Object> codec) {
      this.type = type;
      this.codec = codec;
      this.schemas = SchemaFrames.encode(Schemas.reachableFrom(List.of(codec)));
      MethodHandle constructor;
      try {
        constructor = MethodHandles.publicLookup().findConstructor(type, STRING_CONSTRUCTOR);
      } catch (ReflectiveOperationException | IllegalArgumentException e) {
        constructor = null;
      }
      this.messageConstructor = constructor;
    }

    /** The class, whose name a failure carries. */
    public Class<?> type() {
      return type;
    }

    /** The codec of the exception's fields: the value a failure carries. */
    public ValueCodec<Object> codec() {
      return codec;
    }

    /** The SCHEMA payload a sender announces before the first failure carrying it. Never modify. */
    public byte[] schemas() {
      return schemas;
    }

    /**
     * The exception rebuilt on the receiving side from {@code value} (the value a failure carried,
     * its fields, decoded with the sender's {@code schemas}) and the failure's {@code message},
     * through the constructor chosen at start-up. A peer that sent no value ({@code null}: it
     * predates exceptions with fields) gets what it always got: the public {@code (String)}
     * constructor with the message, else {@code null}, for the caller to throw a {@code
     * RemoteFailureException} instead.
     *
     * @throws IOException if the value cannot be decoded, or the constructor throws (a {@code
     *     CodecException} saying so)
     */
    public Throwable rebuild(byte[] value, String message, PeerSchemas schemas, int maxDepth)
        throws IOException {
      if (value == null) {
        if (messageConstructor == null) {
          return null;
        }
        try {
          return (Throwable) messageConstructor.invoke(message);
        } catch (Throwable t) {
          throw new io.rpcx.core.internal.codec.CodecException(
              "the constructor of " + type.getName() + " threw " + t, t);
        }
      }
      return (Throwable)
          Values.read(
              codec,
              CodedInputStream.newInstance(value),
              new DecodeContext(maxDepth, schemas).exceptionMessage(message));
    }

    @Override
    public String toString() {
      return type.getName();
    }
  }
}
