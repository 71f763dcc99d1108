package io.rpcx.server.internal.dispatch;

import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.model.ServiceModels;
import io.rpcx.core.internal.protocol.SizeHints;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/** A published method bound to the object that implements it. Immutable and thread-safe. */
public final class ServerMethod {
  private final MethodModel model;
  private final Object target;
  private final Method method;
  private final SizeHints sizeHints;
  /** Whether the implementation's result becomes a stage: an asynchronous method, or a stream's end. */
  private final boolean returnsStage;

  ServerMethod(MethodModel model, Object target) {
    this.model = model;
    this.target = target;
    this.method = model.javaMethod();
    this.sizeHints = new SizeHints(model.parameterCount());
    this.returnsStage = model.isAsync() || model.isServerStream();
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

  /**
   * Whether a call's outcome is a {@code CompletionStage}: the future of an asynchronous method,
   * or the end of a server stream.
   */
  boolean returnsStage() {
    return returnsStage;
  }

  /** The sizes of this method's last reply. */
  public SizeHints sizeHints() {
    return sizeHints;
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
