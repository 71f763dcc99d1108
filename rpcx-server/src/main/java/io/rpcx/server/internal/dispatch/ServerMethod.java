package io.rpcx.server.internal.dispatch;

import io.rpcx.annotation.InterruptOnCancel;
import io.rpcx.core.MethodDescriptor;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.model.ServiceModels;
import io.rpcx.core.internal.call.CallRequest;
import io.rpcx.core.internal.protocol.SizeHints;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * A published method bound to the object that implements it, the kind of call its requests
 * become, chosen once by its {@linkplain MethodDescriptor.Shape shape}, and where they run: on the
 * network thread that read them if the method never blocks ({@link MethodPlacement}), else on the
 * server's executor. Immutable and thread-safe.
 */
public final class ServerMethod {
  /** Makes the call of one request of a method. */
  @FunctionalInterface
  private interface CallFactory {
    ServerCall newCall(
        ServerConnection connection,
        ServerMethod method,
        CallRequest request,
        long receivedNanos,
        RequestDispatcher dispatcher);
  }

  private final MethodModel model;
  private final Object target;
  private final Method method;
  private final SizeHints sizeHints;
  /** Whether the implementation returns a {@code CompletionStage} of its value. */
  private final boolean async;
  private final boolean stream;
  /** Whether a call's value is its reply, with no stage between: a blocking unary method. */
  private final boolean repliesAtOnce;
  /** Whether a cancelled call's thread is interrupted ({@code @InterruptOnCancel}). */
  private final boolean interruptsOnCancel;
  private final CallFactory calls;
  /** Why its calls run on the network thread that read them, or {@code null}: on the executor. */
  private final String eventLoopReason;

  /**
   * {@code model}'s method, implemented by {@code target}, whose annotations are read from {@code
   * describedBy} (its class, or the class behind a proxy); its calls run on the network thread if
   * it never blocks and {@code eventLoopAllowed}.
   *
   * @throws IllegalArgumentException if its {@code @Blocking}/{@code @NonBlocking}/{@code
   *     @InterruptOnCancel} annotations are contradictory or impossible ({@link MethodPlacement})
   */
  ServerMethod(
      MethodModel model, Object target, Class<?> describedBy, boolean eventLoopAllowed) {
    this.model = model;
    this.target = target;
    MethodDescriptor descriptor = model.descriptor();
    this.method = descriptor.javaMethod();
    this.sizeHints = new SizeHints(model.parameterCount());
    this.async = descriptor.isAsync() && !descriptor.shape().serverStreams();
    this.stream = descriptor.shape().isStream();
    this.repliesAtOnce = !async && !stream;
    this.interruptsOnCancel = interruptsOnCancel(method, describedBy);
    this.calls =
        switch (descriptor.shape()) {
          case UNARY -> ServerCall::new;
          case CLIENT_STREAM -> ClientStreamCall::new;
          case SERVER_STREAM -> ServerStreamCall::new;
          case BIDI_STREAM -> BidiStreamCall::new;
        };
    String nonBlocking = MethodPlacement.nonBlockingReason(descriptor, describedBy);
    if (nonBlocking != null && interruptsOnCancel) {
      // A method that opts in to interrupts waits for something, and interrupting a network
      // thread would reach whatever it runs next: it runs on a worker.
      if (nonBlocking.equals(MethodPlacement.ANNOTATED)) {
        throw new IllegalArgumentException(
            ServiceModels.describe(method) + " is annotated @NonBlocking and @InterruptOnCancel:"
                + " a method that is interrupted when cancelled waits for something, so it"
                + " blocks; keep one");
      }
      nonBlocking = null;
    }
    this.eventLoopReason = eventLoopAllowed ? nonBlocking : null;
    try {
      method.setAccessible(true);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "cannot call " + ServiceModels.describe(method) + ": " + e.getMessage(), e);
    }
  }

  public MethodModel model() {
    return model;
  }

  /** The sizes of this method's last reply. */
  public SizeHints sizeHints() {
    return sizeHints;
  }

  /** Whether the implementation returns a {@code CompletableFuture} or {@code CompletionStage}. */
  boolean isAsync() {
    return async;
  }

  /** Whether a call's value is its reply, with no stage between: a blocking unary method. */
  boolean repliesAtOnce() {
    return repliesAtOnce;
  }

  /** Whether a cancelled call's thread is interrupted while the implementation runs. */
  boolean interruptsOnCancel() {
    return interruptsOnCancel;
  }

  /**
   * Whether {@code method} (of a service interface) or the implementation class {@code type} opts
   * in to interrupts: {@code @InterruptOnCancel} on the interface method or the interface, or on
   * the implementing method or class (or a superclass, as behind a proxy's subclass).
   */
  private static boolean interruptsOnCancel(Method method, Class<?> type) {
    if (method.isAnnotationPresent(InterruptOnCancel.class)
        || method.getDeclaringClass().isAnnotationPresent(InterruptOnCancel.class)) {
      return true;
    }
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      if (c.isAnnotationPresent(InterruptOnCancel.class)) {
        return true;
      }
      try {
        if (c.getDeclaredMethod(method.getName(), method.getParameterTypes())
            .isAnnotationPresent(InterruptOnCancel.class)) {
          return true;
        }
      } catch (NoSuchMethodException e) {
        // declared further up
      }
    }
    return false;
  }

  /**
   * Whether its calls run on the network thread that read their request, with no hand-off to
   * the executor: the method never blocks.
   */
  boolean runsOnEventLoop() {
    return eventLoopReason != null;
  }

  /** Why its calls run on the network thread ("annotated @NonBlocking"), or {@code null}. */
  String eventLoopReason() {
    return eventLoopReason;
  }

  /** Whether the method streams either way: its calls register with their connection. */
  boolean isStream() {
    return stream;
  }

  /** The call of one request of this method. */
  ServerCall newCall(
      ServerConnection connection,
      CallRequest request,
      long receivedNanos,
      RequestDispatcher dispatcher) {
    return calls.newCall(connection, this, request, receivedNanos, dispatcher);
  }

  /** Calls the implementation; exceptions it throws come out unwrapped. */
  Object invoke(Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
