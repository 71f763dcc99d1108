package io.rpcx.server.internal.dispatch;

import io.rpcx.core.BadRequestException;
import io.rpcx.core.MethodDescriptor;
import io.rpcx.core.RpcxContext;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.model.DeclaredExceptions;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.call.CallRequest;
import io.rpcx.core.internal.protocol.ThrownException;
import io.rpcx.server.CallInfo;
import io.rpcx.server.ServerInterceptor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One call being served: drops it if its caller's timeout has already passed, runs the
 * interceptors, decodes the arguments, runs the implementation, and sends the result or the
 * failure back. Runs where its method was placed: on the server's executor, or on the event loop
 * for a method that never blocks ({@link ServerMethod#runsOnEventLoop()}). Exactly one reply (or stream end) is sent per call,
 * except for calls dropped after their timeout and calls the client cancelled.
 *
 * <p>This is a unary call: one request, one reply, the value the implementation returns (or its
 * future's). A call that streams is a {@link StreamingCall} of its shape, chosen once per method
 * ({@link ServerMethod}): a {@link ClientStreamCall}, whose stream argument is an {@link
 * ArgumentStream}; a {@link ServerStreamCall}, whose result is a {@link ResultStream}; a {@link
 * BidiStreamCall}, which has both.
 */
class ServerCall implements Runnable, CallInfo, CancellableCall {
  private static final Logger logger = LoggerFactory.getLogger(ServerCall.class);

  /** Claims {@link #answered}: a field, not an object per call. */
  private static final AtomicIntegerFieldUpdater<ServerCall> ANSWERED =
      AtomicIntegerFieldUpdater.newUpdater(ServerCall.class, "answered");

  /** Claims {@link #completed}: the call's end, whose reply (or nothing) is sent once. */
  private static final AtomicIntegerFieldUpdater<ServerCall> COMPLETED =
      AtomicIntegerFieldUpdater.newUpdater(ServerCall.class, "completed");

  final ServerConnection connection;
  final ServerMethod method;
  final CallRequest request;
  private final long receivedNanos;
  final RequestDispatcher dispatcher;
  /**
   * 1 once the call's place under the connection's limit was given back ({@link #answered()}): by
   * the thread that ends the call, or by the one that ends its stream for a failure of RPCX's own.
   */
  private volatile int answered;
  private volatile int completed;
  /** The call's context, current while its interceptors and implementation run. */
  private volatile RpcxContext context;
  /** Why the call was cancelled (its client gave up, its connection closed), or {@code null}. */
  private volatile String cancelled;
  /**
   * The thread running an implementation that is interrupted when the call is cancelled, while it
   * runs ({@code @InterruptOnCancel}); guarded by this.
   */
  private Thread interruptible;
  /** Whether this call interrupted {@link #interruptible}; guarded by this. */
  private boolean interruptedOnCancel;

  /** A call of {@code method}; {@code dispatcher} holds what every call of the server shares. */
  ServerCall(
      ServerConnection connection,
      ServerMethod method,
      CallRequest request,
      long receivedNanos,
      RequestDispatcher dispatcher) {
    this.connection = connection;
    this.method = method;
    this.request = request;
    this.receivedNanos = receivedNanos;
    this.dispatcher = dispatcher;
  }

  @Override
  @SuppressWarnings("try") // the call's context is current while it is served
  public void run() {
    MethodModel model = method.model();
    int timeoutMillis = request.timeoutMillis();
    if (timeoutMillis > 0
        && System.nanoTime() - receivedNanos > TimeUnit.MILLISECONDS.toNanos(timeoutMillis)) {
      request.release();
      logger.debug(
          "Dropped {} from {}: its caller's timeout of {} ms passed before it could run",
          model.displayName(),
          connection.remoteAddress(),
          timeoutMillis);
      finished(null);
      dispatcher.refused(
          connection,
          request,
          true,
          StatusCode.TIMEOUT,
          "its caller's timeout of " + timeoutMillis + " ms passed before it could run");
      return;
    }
    String cancelledBefore = cancelled;
    if (cancelledBefore != null && !method.isStream()) {
      request.release();
      logger.debug(
          "Dropped {} from {}: {} before it could run",
          model.displayName(),
          connection.remoteAddress(),
          cancelledBefore);
      finished(null);
      dispatcher.refused(
          connection, request, true, StatusCode.CANCELLED, cancelledBefore + " before it ran");
      return;
    }
    RpcxContext context =
        RpcxContext.forCall(
            request.service(),
            request.method(),
            model.descriptor().javaMethod(),
            timeoutMillis > 0,
            receivedNanos + TimeUnit.MILLISECONDS.toNanos(timeoutMillis),
            request.metadata(),
            connection.remoteAddress());
    this.context = context;
    String cancelledMeanwhile = cancelled; // read after the context is published: see cancel()
    if (cancelledMeanwhile != null) {
      context.cancel(cancelledMeanwhile);
    }
    started(context);
    try (RpcxContext.Scope ignored = context.attach()) {
      serve();
    }
  }

  /** {@link #dispatched}'s argument for a call whose client set no timeout. */
  static final long NO_DEADLINE = Long.MIN_VALUE;

  /**
   * The call was dispatched, on the event loop, before it is handed to the executor: it registers
   * with its connection, which may cancel it; a stream also times itself out {@code
   * deadlineNanos} from now (unless {@link #NO_DEADLINE}).
   */
  void dispatched(long deadlineNanos) {
    connection.callStarted(this);
  }

  @Override
  public final int requestId() {
    return request.requestId();
  }

  /**
   * Cancels the call, saying {@code reason} (see {@link CancellableCall#cancel}): a unary call
   * that has not run never runs; a running call's context is cancelled. Any thread.
   */
  @Override
  public final void cancel(String reason) {
    if (cancelled != null) {
      return;
    }
    cancelled = reason;
    // Written before the context is read, as run() publishes the context before reading this:
    // whichever comes second cancels the context.
    RpcxContext current = context;
    if (current != null) {
      current.cancel(reason);
    }
  }

  /** The call runs, in {@code context}: on its worker or event loop, before its interceptors. */
  void started(RpcxContext context) {}

  /**
   * Runs the interceptors and the implementation, with the call's context current. Without
   * interceptors a unary method's value is answered without a stage of its own.
   */
  private void serve() {
    CompletionStage<Object> stage;
    try {
      if (dispatcher.interceptors.isEmpty()) {
        Object result = invoke();
        if (method.repliesAtOnce()) {
          complete(result, null);
          return;
        }
        stage = outcome(result);
      } else {
        stage = proceed(0);
      }
    } catch (Throwable t) {
      complete(null, t);
      return;
    }
    stage.whenComplete(this::complete);
  }

  /** Runs interceptor {@code index} and those after it, then the implementation. */
  private CompletionStage<Object> proceed(int index) {
    List<ServerInterceptor> interceptors = dispatcher.interceptors;
    if (index == interceptors.size()) {
      try {
        return outcome(invoke());
      } catch (Throwable t) {
        return CompletableFuture.failedFuture(t);
      }
    }
    try {
      CompletionStage<Object> stage =
          interceptors.get(index).intercept(this, () -> proceed(index + 1));
      if (stage == null) {
        return CompletableFuture.failedFuture(
            new IllegalStateException(
                "interceptor " + interceptors.get(index).getClass().getName()
                    + " returned null instead of a CompletionStage"));
      }
      return stage;
    } catch (Exception e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Decodes the arguments and calls the implementation; returns what it returned. Failures of the
   * implementation come out wrapped in {@link ImplementationFailure}; undecodable arguments as
   * {@link BadRequestException}.
   */
  Object invoke() throws Throwable {
    Object[] args;
    try {
      args = request.arguments(method.model(), dispatcher.maxDepth, connection.peerSchemas());
    } catch (CodecException e) {
      logger.debug("Bad request from {}: {}", connection.remoteAddress(), e.getMessage());
      throw new BadRequestException(e.getMessage());
    } finally {
      request.release();
    }
    try {
      return method.interruptsOnCancel()
          ? invokeInterruptibly(withStreams(args))
          : method.invoke(withStreams(args));
    } catch (Throwable t) {
      throw new ImplementationFailure(t);
    }
  }

  /**
   * Calls the implementation of a method annotated {@code @InterruptOnCancel}: this thread is
   * interrupted if the call is cancelled while the implementation runs, and an interrupt it left
   * is cleared before the thread serves another call.
   */
  private Object invokeInterruptibly(Object[] args) throws Throwable {
    synchronized (this) {
      interruptible = Thread.currentThread();
    }
    RpcxContext.Registration registration = context.onCancel(this::interruptImplementation);
    try {
      return method.invoke(args);
    } finally {
      registration.close();
      boolean interrupted;
      synchronized (this) {
        interruptible = null;
        interrupted = interruptedOnCancel;
      }
      if (interrupted) {
        Thread.interrupted();
      }
    }
  }

  private synchronized void interruptImplementation() {
    if (interruptible != null) {
      interruptedOnCancel = true;
      interruptible.interrupt();
    }
  }

  /** The decoded arguments, with a stream argument put in its place. */
  Object[] withStreams(Object[] args) {
    return args;
  }

  /**
   * The call's outcome, from what the implementation returned: its value, or the stage of an
   * asynchronous result (whose failure is the implementation's).
   */
  @SuppressWarnings("unchecked")
  CompletionStage<Object> outcome(Object result) {
    if (!method.isAsync()) {
      return CompletableFuture.completedFuture(result);
    }
    if (result == null) {
      throw new ImplementationFailure(
          new NullPointerException(method.model().displayName() + " returned a null future"));
    }
    return ((CompletionStage<Object>) result)
        .handle(
            (value, failure) -> {
              if (failure != null) {
                throw new ImplementationFailure(unwrap(failure));
              }
              return value;
            });
  }

  /** Answers with an error without running the implementation. */
  void reject(StatusCode code, String message) {
    request.release();
    dispatcher.refused(connection, request, true, code, message);
    answered();
    connection.replies().sendError(request.requestId(), code, message, null);
    finished(null);
  }

  /** The call's end: sends its result or failure, once, unless RPCX ended it without a reply. */
  final void complete(Object result, Throwable failure) {
    if (!COMPLETED.compareAndSet(this, 0, 1)) {
      return; // RPCX ended the call first (or the implementation did)
    }
    if (isSilent()) {
      logger.debug(
          "{} from {} ended without a reply: {}",
          method.model().displayName(),
          connection.remoteAddress(),
          failure == null ? "" : failure.getMessage());
      request.release();
      finished(failure);
      return;
    }
    try {
      ReplyFault.Action fault =
          dispatcher.replyFaults.length == 0 ? ReplyFault.Action.SEND : replyFault();
      answered();
      if (fault == ReplyFault.Action.DROP) {
        logger.debug(
            "Reply to {} dropped by a fault injected for a test", method.model().displayName());
      } else if (fault == ReplyFault.Action.RESET) {
        logger.debug(
            "Connection from {} reset by a fault injected for a test, instead of replying to {}",
            connection.remoteAddress(),
            method.model().displayName());
        connection.reset();
      } else if (failure == null) {
        sendResult(result);
      } else {
        sendFailure(unwrap(failure));
      }
    } finally {
      request.release();
      finished(failure);
    }
  }

  /** Whether the call ends without a reply: the client cancelled it, or is gone. */
  boolean isSilent() {
    return cancelled != null;
  }

  /** What the interceptors that inject faults ({@link ReplyFault}) make of the reply. */
  private ReplyFault.Action replyFault() {
    for (ReplyFault fault : dispatcher.replyFaults) {
      ReplyFault.Action action;
      try {
        action = fault.beforeReply(this);
      } catch (RuntimeException e) {
        // A broken fault must not leave the caller waiting for its timeout: reply as usual.
        logger.warn(
            "Fault {} failed for {}; replying as usual",
            fault.getClass().getName(),
            method.model().displayName(),
            e);
        action = ReplyFault.Action.SEND;
      }
      if (action != ReplyFault.Action.SEND) {
        return action;
      }
    }
    return ReplyFault.Action.SEND;
  }

  /**
   * Gives the call's place under the connection's limit back, once, just before its last frame is
   * queued: the client may read that frame and start its next call before this thread runs on.
   */
  final void answered() {
    if (ANSWERED.compareAndSet(this, 0, 1)) {
      connection.callAnswered();
    }
  }

  /** The call is over, with {@code failure} (or null): counts it and lets go of its streams. */
  void finished(Throwable failure) {
    if (!method.isStream()) {
      connection.callEnded(this);
    }
    answered();
    connection.callFinished();
    dispatcher.tracker.finished();
  }

  /** Sends the implementation's value. */
  void sendResult(Object result) {
    try {
      connection.replies().sendValue(request.requestId(), method, result);
    } catch (CodecException | RuntimeException e) {
      // The method ran: its effects stand, so the caller must not take this for a call that
      // never happened (INTERNAL is never retried).
      String problem =
          method.model().displayName() + " ran, but its result could not be encoded: "
              + (e instanceof CodecException ? e.getMessage() : e.toString());
      logger.warn("{} (for {})", problem, connection.remoteAddress());
      connection.replies().sendError(request.requestId(), StatusCode.INTERNAL, problem, null);
    }
  }

  private void sendFailure(Throwable failure) {
    MethodModel model = method.model();
    if (failure instanceof ImplementationFailure) {
      Throwable thrown = unwrap(failure.getCause());
      DeclaredExceptions.Thrown declared = model.thrownExceptions().of(thrown);
      dispatcher.exceptionLog.log(
          logger, declared != null, model.displayName(), connection.remoteAddress(), thrown);
      String message = thrown.getMessage() == null ? "" : thrown.getMessage();
      sendError(
          StatusCode.REMOTE_FAILURE,
          message,
          withStackTrace(
              declared == null
                  ? ThrownException.named(thrown.getClass().getName())
                  // As the class the method declares (a subclass the client cannot know arrives
                  // as it), with its fields.
                  : ThrownException.withFields(
                      declared.type().getName(), declared.codec(), thrown, declared.schemas()),
              thrown));
    } else if (failure instanceof RpcxException) {
      RpcxException refusal = (RpcxException) failure;
      logger.debug(
          "{} from {} refused: {}",
          model.displayName(),
          connection.remoteAddress(),
          refusal.getMessage());
      sendError(refusal.status(), String.valueOf(refusal.getMessage()), null);
    } else {
      dispatcher.exceptionLog.log(
          logger,
          false,
          "an interceptor of " + model.displayName(),
          connection.remoteAddress(),
          failure);
      sendError(
          StatusCode.REMOTE_FAILURE,
          failure.getMessage() == null ? "" : failure.getMessage(),
          withStackTrace(ThrownException.named(failure.getClass().getName()), failure));
    }
  }

  /** {@code sent}, with {@code thrown}'s stack trace if the server sends them. */
  private ThrownException withStackTrace(ThrownException sent, Throwable thrown) {
    return dispatcher.sendStackTraces ? sent.withStackTrace(thrown.getStackTrace()) : sent;
  }

  /** Sends an error as the call's end: a REPLY, unless a stream started. */
  void sendError(StatusCode code, String message, ThrownException thrown) {
    connection.replies().sendError(request.requestId(), code, message, thrown);
  }

  static Throwable unwrap(Throwable failure) {
    Throwable t = failure;
    while (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  // CallInfo, for interceptors.

  @Override
  public MethodDescriptor method() {
    return method.model().descriptor();
  }

  @Override
  public Map<String, String> metadata() {
    return request.metadata();
  }

  @Override
  public String remoteAddress() {
    return connection.remoteAddress();
  }

  @Override
  public Optional<Duration> timeRemaining() {
    return context.timeRemaining();
  }

  @Override
  public RpcxContext context() {
    return context;
  }

  /** An exception thrown by the implementation, as opposed to a refusal by RPCX or an interceptor. */
  static final class ImplementationFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ImplementationFailure(Throwable cause) {
      super(cause.toString(), cause, false, false);
    }
  }
}
