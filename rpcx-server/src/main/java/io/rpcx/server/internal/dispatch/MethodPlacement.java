package io.rpcx.server.internal.dispatch;

import io.rpcx.annotation.Blocking;
import io.rpcx.annotation.NonBlocking;
import io.rpcx.core.MethodDescriptor;
import io.rpcx.core.internal.model.ServiceModels;
import io.rpcx.server.ServerInterceptor;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.util.List;

/**
 * Whether a published method never blocks, and so runs on the network thread that read its
 * request: read once, when the server is built, from its signature and its {@link NonBlocking}
 * and {@link Blocking} annotations. A method without streams returning {@code CompletableFuture}
 * or {@code CompletionStage} is non-blocking unless annotated {@code @Blocking}; any other method
 * (streams included) is blocking unless annotated {@code @NonBlocking}. The nearest annotation wins: the
 * implementation's method (or, for a subclass made by a proxy library, the method it overrides),
 * then the implementation's class, then the service interface's method, then the interface.
 */
final class MethodPlacement {
  /** Why a method annotated {@link NonBlocking} runs on a network thread. */
  static final String ANNOTATED = "annotated @NonBlocking";

  private MethodPlacement() {}

  /**
   * Why calls of {@code descriptor}'s method, implemented by {@code implementation}, may run on a
   * network thread ("asynchronous (it returns CompletionStage)", "annotated @NonBlocking"), or
   * {@code null} if they must not.
   *
   * @throws IllegalArgumentException if the method is annotated both ways, or {@code @NonBlocking}
   *     although it would wait on its network thread for the stream argument that thread delivers
   */
  static String nonBlockingReason(MethodDescriptor descriptor, Class<?> implementation) {
    Method method = descriptor.javaMethod();
    Declared declared = declared(method, implementation);
    // Asynchronous by default only without streams: a stream argument's signals and a server
    // stream's elements run where the call runs, and their code (a file written per chunk) is
    // not watched there; @NonBlocking puts a stream method on the network thread on purpose.
    boolean async = descriptor.isAsync() && !descriptor.shape().isStream();
    if (declared == Declared.NON_BLOCKING
        && descriptor.shape().clientStreams()
        && !descriptor.isAsync()) {
      throw new IllegalArgumentException(
          ServiceModels.describe(method) + " is annotated @NonBlocking, but it takes a stream"
              + " argument and returns its result synchronously: it would wait on the network"
              + " thread for the stream messages that thread delivers. Return CompletableFuture,"
              + " CompletionStage or Flow.Publisher instead, or remove @NonBlocking");
    }
    if (declared == Declared.NON_BLOCKING) {
      return ANNOTATED;
    }
    if (declared == Declared.NONE && async) {
      return "asynchronous (it returns " + method.getReturnType().getSimpleName() + ")";
    }
    return null;
  }

  /**
   * The interceptor among {@code interceptors} whose class is annotated {@link Blocking}, or
   * {@code null}: with one, every method runs on the executor, since interceptors run where the
   * method they intercept runs.
   */
  static ServerInterceptor blockingInterceptor(List<ServerInterceptor> interceptors) {
    for (ServerInterceptor interceptor : interceptors) {
      if (interceptor.getClass().isAnnotationPresent(Blocking.class)) {
        return interceptor;
      }
    }
    return null;
  }

  /** What the annotations nearest to the method say. */
  private static Declared declared(Method method, Class<?> implementation) {
    for (Class<?> type = implementation; type != null && type != Object.class;
        type = type.getSuperclass()) {
      Declared found = declaredOn(declaredMethod(type, method));
      if (found != Declared.NONE) {
        return found;
      }
    }
    Declared found = declaredOn(implementation);
    if (found != Declared.NONE) {
      return found;
    }
    found = declaredOn(method);
    return found != Declared.NONE ? found : declaredOn(method.getDeclaringClass());
  }

  private static Method declaredMethod(Class<?> type, Method method) {
    try {
      return type.getDeclaredMethod(method.getName(), method.getParameterTypes());
    } catch (NoSuchMethodException e) {
      return null;
    }
  }

  private static Declared declaredOn(AnnotatedElement element) {
    if (element == null) {
      return Declared.NONE;
    }
    boolean blocking = element.isAnnotationPresent(Blocking.class);
    boolean nonBlocking = element.isAnnotationPresent(NonBlocking.class);
    if (blocking && nonBlocking) {
      throw new IllegalArgumentException(
          (element instanceof Method annotated
                  ? ServiceModels.describe(annotated)
                  : ((Class<?>) element).getName())
              + " is annotated both @Blocking and @NonBlocking; keep one");
    }
    return blocking ? Declared.BLOCKING : nonBlocking ? Declared.NON_BLOCKING : Declared.NONE;
  }

  private enum Declared {
    NONE,
    BLOCKING,
    NON_BLOCKING
  }
}
