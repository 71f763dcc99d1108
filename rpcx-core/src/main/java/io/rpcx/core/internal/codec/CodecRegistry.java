package io.rpcx.core.internal.codec;

import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Finds the codec of each declared type, once, and keeps it for the life of the client or server.
 *
 * <p>Factories are asked in order and the first non-null answer wins; when none answers, the error
 * lists every factory that was tried. Resolution happens while services are registered; the
 * per-call path only uses the codecs it was given. Thread-safe.
 */
public final class CodecRegistry {
  private final List<CodecFactory> factories;
  private final Map<Type, ValueCodec<?>> resolved = new ConcurrentHashMap<>();
  /** Exception codecs, apart: an exception is never a value. */
  private final Map<Class<?>, ValueCodec<?>> exceptions = new ConcurrentHashMap<>();

  private CodecRegistry(List<CodecFactory> factories) {
    this.factories = List.copyOf(factories);
  }

  /**
   * A registry with this package's codecs (scalars, protobuf messages, JDK types, containers), then
   * {@code more}, asked in that order: the codecs of POJOs come from outside this package.
   */
  public static CodecRegistry withBuiltIns(CodecFactory... more) {
    List<CodecFactory> factories = new ArrayList<>();
    factories.add(new ScalarCodecs());
    factories.add(new ProtobufMessageCodecs());
    factories.add(new JavaTypeCodecs());
    factories.add(new ContainerCodecs());
    factories.addAll(List.of(more));
    return new CodecRegistry(factories);
  }

  /**
   * The codec for {@code type}.
   *
   * @throws UnsupportedTypeException if the type, or a type nested in it, cannot be carried
   */
  public synchronized ValueCodec<?> codecFor(Type type) {
    ValueCodec<?> codec = resolved.get(type);
    if (codec != null) {
      return codec;
    }
    Resolution resolution = new Resolution();
    codec = resolution.resolve(type, null);
    resolved.putAll(resolution.done);
    return codec;
  }

  /**
   * The codec of the exception class {@code type}, which a method declares: its fields, carried
   * with the codecs of values, and how it is rebuilt ({@link CodecFactory#createException}).
   *
   * @throws UnsupportedTypeException if it cannot be carried or rebuilt, or no factory makes
   *     exception codecs
   */
  public synchronized ValueCodec<?> exceptionCodecFor(Class<?> type) {
    ValueCodec<?> codec = exceptions.get(type);
    if (codec != null) {
      return codec;
    }
    Resolution resolution = new Resolution();
    for (CodecFactory factory : factories) {
      codec = factory.createException(type, resolution);
      if (codec != null) {
        resolved.putAll(resolution.done);
        exceptions.put(type, codec);
        return codec;
      }
    }
    throw new UnsupportedTypeException(type.getName(), "no codec carries exceptions");
  }

  /** One top-level resolution: codecs completed so far, and those still being built. */
  private final class Resolution implements CodecResolver {
    private final Map<Type, ValueCodec<?>> done = new HashMap<>();
    private final Map<Type, ValueCodec<?>> inProgress = new HashMap<>();

    @Override
    public ValueCodec<?> resolve(Type type, String role) {
      try {
        return resolveType(type);
      } catch (UnsupportedTypeException e) {
        throw role == null ? e : e.within(role);
      }
    }

    @Override
    public void registerInProgress(Type type, ValueCodec<?> codec) {
      inProgress.put(type, codec);
    }

    private ValueCodec<?> resolveType(Type type) {
      ValueCodec<?> codec = resolved.get(type);
      if (codec == null) {
        codec = done.get(type);
      }
      if (codec == null) {
        codec = inProgress.get(type);
      }
      if (codec != null) {
        return codec;
      }
      if (type instanceof TypeVariable) {
        throw new UnsupportedTypeException(
            type.getTypeName(),
            "a type variable has no concrete type to encode; declare a concrete type");
      }
      if (type instanceof WildcardType) {
        return resolveType(((WildcardType) type).getUpperBounds()[0]);
      }
      for (CodecFactory factory : factories) {
        codec = factory.create(type, this);
        if (codec != null) {
          inProgress.remove(type);
          done.put(type, codec);
          return codec;
        }
      }
      throw new UnsupportedTypeException(
          Types.name(type),
          "no codec handles it (tried: "
              + factories.stream().map(CodecFactory::description).collect(Collectors.joining("; "))
              + ")");
    }
  }
}
