package io.rpcx.core;

import java.lang.reflect.Method;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.stream.Stream;

/**
 * What RPCX knows of a remote method before any call: its published names, its {@link Shape} (which
 * ways it streams), whether its result arrives asynchronously, whether it may be retried, and the
 * Java method it was read from. Worked out once when a client interface or a service is first
 * used, and the same object for every call of the method: client and server interceptors get it
 * from {@code ClientCall.method()} and {@code CallInfo.method()}. Immutable and thread-safe.
 *
 * <pre>{@code
 * MethodDescriptor method = call.method();
 * if (method.shape().serverStreams()) {
 *   ... // count the messages of a stream, not only the call
 * }
 * }</pre>
 */
public final class MethodDescriptor {
  /**
   * Which ways a method streams messages (docs/STREAMING.md), read from its signature: a result of
   * {@code Flow.Publisher<T>} or {@code Stream<T>} streams from the server, a {@code
   * Flow.Publisher<T>} parameter streams from the client.
   */
  public enum Shape {
    /** One request, one reply. */
    UNARY(false, false),
    /** One request, a stream of replies: the method returns {@code Flow.Publisher} or {@code Stream}. */
    SERVER_STREAM(false, true),
    /** A stream of requests (a {@code Flow.Publisher} parameter), one reply. */
    CLIENT_STREAM(true, false),
    /** Streams both ways: a {@code Flow.Publisher} parameter and a stream result. */
    BIDI_STREAM(true, true);

    private final boolean clientStreams;
    private final boolean serverStreams;

    Shape(boolean clientStreams, boolean serverStreams) {
      this.clientStreams = clientStreams;
      this.serverStreams = serverStreams;
    }

    /** Whether the client sends a stream of messages (a {@code Flow.Publisher} argument). */
    public boolean clientStreams() {
      return clientStreams;
    }

    /** Whether the server sends a stream of messages (the result). */
    public boolean serverStreams() {
      return serverStreams;
    }

    /** Whether messages stream either way: such a call is never retried and has no default timeout. */
    public boolean isStream() {
      return clientStreams || serverStreams;
    }

    /** The shape of a method streaming from the client if {@code client}, from the server if {@code server}. */
    public static Shape of(boolean client, boolean server) {
      return client ? (server ? BIDI_STREAM : CLIENT_STREAM) : (server ? SERVER_STREAM : UNARY);
    }
  }

  private final String service;
  private final String method;
  private final String fullName;
  private final Shape shape;
  private final boolean async;
  private final boolean idempotent;
  private final Method javaMethod;

  private MethodDescriptor(
      String service,
      String method,
      Shape shape,
      boolean async,
      boolean idempotent,
      Method javaMethod) {
    this.service = Objects.requireNonNull(service, "service");
    this.method = Objects.requireNonNull(method, "method");
    this.fullName = service + "/" + method;
    this.shape = Objects.requireNonNull(shape, "shape");
    this.async = async;
    this.idempotent = idempotent;
    this.javaMethod = javaMethod;
  }

  /**
   * The descriptor of {@code javaMethod}, published as {@code service/method}: its shape and whether
   * it is asynchronous are read from its signature.
   */
  public static MethodDescriptor of(
      String service, String method, Method javaMethod, boolean idempotent) {
    Class<?> result = javaMethod.getReturnType();
    boolean serverStreams = result == Flow.Publisher.class || result == Stream.class;
    boolean clientStreams = false;
    for (Class<?> parameter : javaMethod.getParameterTypes()) {
      clientStreams |= parameter == Flow.Publisher.class;
    }
    boolean async =
        result == Flow.Publisher.class
            || result == CompletableFuture.class
            || result == CompletionStage.class;
    return new MethodDescriptor(
        service, method, Shape.of(clientStreams, serverStreams), async, idempotent, javaMethod);
  }

  /**
   * The descriptor of a method known only by its names and shape, with no Java method: a raw call
   * ({@code RpcxClient.call}), for example.
   */
  public static MethodDescriptor of(
      String service, String method, Shape shape, boolean async, boolean idempotent) {
    return new MethodDescriptor(service, method, shape, async, idempotent, null);
  }

  /** The published service name. */
  public String service() {
    return service;
  }

  /** The published method name. */
  public String method() {
    return method;
  }

  /** {@code service/method}: how RPCX names the method in messages, logs and metrics. */
  public String fullName() {
    return fullName;
  }

  /** Which ways the method streams. */
  public Shape shape() {
    return shape;
  }

  /**
   * Whether the method returns at once and its result arrives later: it returns {@code
   * CompletableFuture}, {@code CompletionStage} or {@code Flow.Publisher}. A blocking method returns
   * its value, or a {@code java.util.stream.Stream} the calling thread iterates.
   */
  public boolean isAsync() {
    return async;
  }

  /** Whether the method or its interface is annotated {@code @Idempotent}: a failed call may be retried. */
  public boolean isIdempotent() {
    return idempotent;
  }

  /**
   * The Java method: the client interface's on a client, the service interface's on a server;
   * {@code null} for a method known only by name (a raw call).
   */
  public Method javaMethod() {
    return javaMethod;
  }

  @Override
  public String toString() {
    return fullName + " (" + shape + (async ? ", async" : "") + ")";
  }
}
