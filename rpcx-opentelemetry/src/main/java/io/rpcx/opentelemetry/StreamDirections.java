package io.rpcx.opentelemetry;

import java.lang.reflect.Method;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Flow;
import java.util.stream.Stream;

/**
 * Which ways a method streams messages (docs/STREAMING.md), read from its signature: its result (it
 * returns {@code Flow.Publisher} or {@code Stream}: the server sends messages, the client receives
 * them) and its argument (a {@code Flow.Publisher} parameter: the client sends, the server
 * receives). A bidirectional method does both; a unary method neither.
 */
record StreamDirections(boolean result, boolean argument) {
  /** A unary method's, or a raw call's (which has no Java method). */
  static final StreamDirections NONE = new StreamDirections(false, false);

  /** The directions of {@code method}; {@link #NONE} for {@code null}. */
  static StreamDirections of(Method method) {
    if (method == null) {
      return NONE;
    }
    Class<?> returned = method.getReturnType();
    boolean result = returned == Flow.Publisher.class || returned == Stream.class;
    boolean argument = false;
    for (Class<?> parameter : method.getParameterTypes()) {
      argument |= parameter == Flow.Publisher.class;
    }
    return result || argument ? new StreamDirections(result, argument) : NONE;
  }

  /** Whether the method streams at all. */
  boolean any() {
    return result || argument;
  }

  /**
   * The directions of the methods an instrumentation sees, each read once: a call costs a lookup.
   * At most {@link #MAX_METHODS} are kept (interfaces have few methods; this is a guard).
   * Thread-safe.
   */
  static final class Cache {
    static final int MAX_METHODS = 4096;

    private final ConcurrentMap<Method, StreamDirections> methods = new ConcurrentHashMap<>();

    /** The directions of {@code method}; {@link #NONE} for {@code null}. */
    StreamDirections of(Method method) {
      if (method == null) {
        return NONE;
      }
      StreamDirections known = methods.get(method);
      if (known == null) {
        known = StreamDirections.of(method);
        if (methods.size() < MAX_METHODS) {
          methods.putIfAbsent(method, known);
        }
      }
      return known;
    }
  }
}
