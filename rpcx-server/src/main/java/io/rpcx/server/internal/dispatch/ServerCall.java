package io.rpcx.server.internal.dispatch;

import io.rpcx.core.BadRequestException;
import io.rpcx.core.RpcxContext;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.RequestEnvelope;
import io.rpcx.server.CallInfo;
import io.rpcx.server.ServerInterceptor;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One call being served: drops it if its caller's timeout has already passed, runs the
 * interceptors, decodes the arguments, runs the implementation, and sends the result or the
 * failure back. Runs on the server's executor. Exactly one reply is sent per call, except for calls
 * dropped after their timeout.
 */
final class ServerCall implements Runnable, CallInfo {
  private static final Logger logger = LoggerFactory.getLogger(ServerCall.class);

  private final ServerConnection connection;
  private final ServerMethod method;
  private final RequestEnvelope envelope;
  private final long receivedNanos;
  private final int maxDepth;
  private final CallTracker tracker;
  private final List<ServerInterceptor> interceptors;
  private final ReplyFault[] replyFaults;
  private final ExceptionLog exceptionLog;
  private final RequestDispatcher dispatcher;
  /** The stream of a server-stream call, or {@code null}. */
  private final ServerStream stream;
  /** The stream argument of a client or bidirectional stream call, or {@code null}. */
  private final InboundStream inbound;
  /** The call's end was claimed: its reply (or nothing) is sent once. */
  private final AtomicBoolean completed = new AtomicBoolean();
  /** Claims {@link #answered}: a field, not an object per call. */
  private static final AtomicIntegerFieldUpdater<ServerCall> ANSWERED =
      AtomicIntegerFieldUpdater.newUpdater(ServerCall.class, "answered");

  /**
   * 1 once the call's place under the connection's limit was given back ({@link #answered()}): by
   * the thread that ends the call, or by the one that ends its stream for a failure of RPCX's own.
   */
  private volatile int answered;
  private Payload payload;
  /** The call's context, current while its interceptors and implementation run. */
  private RpcxContext context;

  /** A call of {@code method}; {@code server} holds what every call of the server shares. */
  ServerCall(
      ServerConnection connection,
      ServerMethod method,
      RequestEnvelope envelope,
      Payload payload,
      long receivedNanos,
      RequestDispatcher server,
      ServerStream stream,
      InboundStream inbound) {
    this.stream = stream;
    this.inbound = inbound;
    this.connection = connection;
    this.method = method;
    this.envelope = envelope;
    this.payload = payload;
    this.receivedNanos = receivedNanos;
    this.maxDepth = server.maxDepth;
    this.tracker = server.tracker;
    this.interceptors = server.interceptors;
    this.replyFaults = server.replyFaults;
    this.exceptionLog = server.exceptionLog;
    this.dispatcher = server;
    if (stream != null) {
      stream.beforeFailureEnd(this::answered);
    }
  }

  @Override
  public void run() {
    MethodModel model = method.model();
    int timeoutMillis = envelope.timeoutMillis();
    if (timeoutMillis > 0
        && System.nanoTime() - receivedNanos > TimeUnit.MILLISECONDS.toNanos(timeoutMillis)) {
      releasePayload();
      logger.debug(
          "Dropped {} from {}: its caller's timeout of {} ms passed before it could run",
          model.displayName(),
          connection.remoteAddress(),
          timeoutMillis);
      finished();
      dispatcher.refused(
          connection,
          envelope,
          true,
          StatusCode.TIMEOUT,
          "its caller's timeout of " + timeoutMillis + " ms passed before it could run");
      return;
    }
    context =
        RpcxContext.forCall(
            envelope.service(),
            envelope.method(),
            model.javaMethod(),
            timeoutMillis > 0,
            receivedNanos + TimeUnit.MILLISECONDS.toNanos(timeoutMillis),
            envelope.metadata(),
            connection.remoteAddress());
    if (inbound != null) {
      inbound.context(context);
      // RPCX may end a client stream while its implementation still runs (a synchronous one
      // blocks its worker until the stream ends): the reply goes out then, not when it returns.
      inbound.aborted().whenComplete((value, failure) -> complete(null, failure));
    }
    try (RpcxContext.Scope ignored = context.attach()) {
      serve(model);
    }
  }

  /** Runs the interceptors and the implementation, with the call's context current. */
  private void serve(MethodModel model) {
    if (interceptors.isEmpty() && inbound == null) {
      Object result;
      try {
        result = invoke();
      } catch (Throwable t) {
        complete(null, t);
        return;
      }
      if (method.returnsStage()) {
        ((CompletionStage<?>) result).whenComplete(this::complete);
      } else {
        complete(result, null);
      }
      return;
    }
    CompletionStage<Object> stage;
    try {
      stage = proceed(0);
    } catch (Throwable t) {
      complete(null, t);
      return;
    }
    stage.whenComplete(this::complete);
  }

  /** Runs interceptor {@code index} and those after it, then the implementation. */
  private CompletionStage<Object> proceed(int index) {
    if (index == interceptors.size()) {
      try {
        Object result = invoke();
        @SuppressWarnings("unchecked")
        CompletionStage<Object> stage =
            method.returnsStage()
                ? (CompletionStage<Object>) result
                : CompletableFuture.completedFuture(result);
        return inbound == null || stream != null ? stage : orAborted(stage);
      } catch (Throwable t) {
        return CompletableFuture.failedFuture(t);
      }
    }
    try {
      CompletionStage<Object> stage = interceptors.get(index).intercept(this, () -> proceed(index + 1));
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
   * The implementation's outcome, or the end RPCX gave the call first (a client stream's deadline,
   * cancel, shutdown): what the interceptors see.
   */
  private CompletionStage<Object> orAborted(CompletionStage<Object> implementation) {
    CompletableFuture<Object> first = new CompletableFuture<>();
    inbound.aborted().whenComplete((value, failure) -> first.completeExceptionally(failure));
    implementation.whenComplete(
        (value, failure) -> {
          if (failure != null) {
            first.completeExceptionally(failure);
          } else {
            first.complete(value);
          }
        });
    return first;
  }

  /**
   * Decodes the arguments and calls the implementation. Failures of the implementation come out
   * wrapped in {@link ImplementationFailure}; undecodable arguments as {@link BadRequestException}.
   */
  private Object invoke() throws Throwable {
    if (stream != null && stream.isEnded()) { // cancelled or timed out before it ran
      releasePayload();
      return stream.ended();
    }
    if (inbound != null && inbound.isEnded()) {
      releasePayload();
      return inbound.aborted();
    }
    Object[] args;
    try {
      args =
          ArgumentDecoder.decode(
              method.model(), envelope, payload, maxDepth, connection.peerSchemas());
    } catch (CodecException e) {
      logger.debug("Bad request from {}: {}", connection.remoteAddress(), e.getMessage());
      throw new BadRequestException(e.getMessage());
    } finally {
      releasePayload();
    }
    if (inbound != null) {
      args[method.model().streamParameterIndex()] = inbound;
    }
    Object result;
    try {
      result = method.invoke(args);
    } catch (Throwable t) {
      throw new ImplementationFailure(t);
    }
    if (stream != null) {
      if (result == null) {
        throw new ImplementationFailure(
            new NullPointerException(method.model().displayName() + " returned a null stream"));
      }
      stream.start(result);
      return stream.ended();
    }
    if (method.model().isAsync() && result == null) {
      throw new ImplementationFailure(
          new NullPointerException(method.model().displayName() + " returned a null future"));
    }
    if (method.model().isAsync()) {
      return ((CompletionStage<?>) result)
          .handle(
              (value, failure) -> {
                if (failure != null) {
                  throw new ImplementationFailure(unwrap(failure));
                }
                return value;
              });
    }
    return result;
  }

  /** Answers with an error without running the implementation. */
  void reject(StatusCode code, String message) {
    releasePayload();
    dispatcher.refused(connection, envelope, true, code, message);
    answered();
    connection.sendError(envelope.requestId(), code, message, "");
    finished();
  }

  private void complete(Object result, Throwable failure) {
    if (!completed.compareAndSet(false, true)) {
      return; // RPCX ended the call first (or the implementation did)
    }
    if (inbound != null && inbound.isSilent()) {
      logger.debug(
          "{} from {} ended without a reply: {}",
          method.model().displayName(), connection.remoteAddress(), failure == null ? "" : failure.getMessage());
      releasePayload();
      finished(failure);
      return;
    }
    try {
      ReplyFault.Action fault = replyFaults.length == 0 ? ReplyFault.Action.SEND : replyFault();
      answered();
      if (fault == ReplyFault.Action.DROP) {
        logger.debug("Reply to {} dropped by a fault injected for a test", method.model().displayName());
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
      releasePayload();
      finished(failure);
    }
  }

  /** What the interceptors that inject faults ({@link ReplyFault}) make of the reply. */
  private ReplyFault.Action replyFault() {
    for (ReplyFault fault : replyFaults) {
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

  private void finished() {
    finished(null);
  }

  /**
   * Gives the call's place under the connection's limit back, once, just before its last frame is
   * queued: the client may read that frame and start its next call before this thread runs on.
   */
  private void answered() {
    if (ANSWERED.compareAndSet(this, 0, 1)) {
      connection.callAnswered();
    }
  }

  /** The call is over, with {@code failure} (or null): counts it and lets go of its streams. */
  private void finished(Throwable failure) {
    if (stream != null) {
      stream.close();
      connection.streamEnded(stream);
    }
    if (inbound != null) {
      connection.inboundEnded(inbound);
      inbound.callEnded(failure == null ? null : unwrap(failure));
    }
    answered();
    connection.callFinished();
    tracker.finished();
  }

  private void sendResult(Object result) {
    if (stream != null) {
      stream.end(null, "", "");
      return;
    }
    MethodModel model = method.model();
    try {
      connection.sendValue(envelope.requestId(), method, result);
    } catch (CodecException | RuntimeException e) {
      // The method ran: its effects stand, so the caller must not take this for a call that
      // never happened (INTERNAL is never retried).
      String problem =
          model.displayName() + " ran, but its result could not be encoded: "
              + (e instanceof CodecException ? e.getMessage() : e.toString());
      logger.warn("{} (for {})", problem, connection.remoteAddress());
      connection.sendError(envelope.requestId(), StatusCode.INTERNAL, problem, "");
    }
  }

  private void sendFailure(Throwable failure) {
    MethodModel model = method.model();
    if (failure instanceof ImplementationFailure) {
      Throwable thrown = unwrap(failure.getCause());
      boolean declared = false;
      for (Class<?> type : model.declaredExceptions()) {
        declared |= type.isInstance(thrown);
      }
      exceptionLog.log(
          logger, declared, model.displayName(), connection.remoteAddress(), thrown);
      String message = thrown.getMessage() == null ? "" : thrown.getMessage();
      sendError(StatusCode.REMOTE_FAILURE, message, thrown.getClass().getName());
    } else if (failure instanceof RpcxException) {
      RpcxException refusal = (RpcxException) failure;
      logger.debug(
          "{} from {} refused: {}", model.displayName(), connection.remoteAddress(), refusal.getMessage());
      sendError(refusal.status(), String.valueOf(refusal.getMessage()), "");
    } else {
      exceptionLog.log(
          logger, false, "an interceptor of " + model.displayName(), connection.remoteAddress(),
          failure);
      sendError(
          StatusCode.REMOTE_FAILURE,
          failure.getMessage() == null ? "" : failure.getMessage(),
          failure.getClass().getName());
    }
  }

  /**
   * Sends an error: a REPLY, or the STREAM_END of a stream that started (or that RPCX ended
   * already, which then sends nothing more).
   */
  private void sendError(StatusCode code, String message, String exceptionClass) {
    if (stream != null && (stream.started() || stream.isEnded())) {
      stream.end(code, message, exceptionClass);
    } else {
      connection.sendError(envelope.requestId(), code, message, exceptionClass);
    }
  }

  private static Throwable unwrap(Throwable failure) {
    Throwable t = failure;
    while (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  private void releasePayload() {
    Payload held = payload;
    if (held != null) {
      payload = null;
      held.release();
    }
  }

  // CallInfo, for interceptors.

  @Override
  public String service() {
    return envelope.service();
  }

  @Override
  public String method() {
    return envelope.method();
  }

  @Override
  public Method javaMethod() {
    return method.model().javaMethod();
  }

  @Override
  public Map<String, String> metadata() {
    return envelope.metadata();
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

  @Override
  public long streamMessagesSent() {
    return stream == null ? 0 : stream.sent();
  }

  @Override
  public long streamMessagesReceived() {
    return inbound == null ? 0 : inbound.received();
  }

  /** An exception thrown by the implementation, as opposed to a refusal by RPCX or an interceptor. */
  static final class ImplementationFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ImplementationFailure(Throwable cause) {
      super(cause.toString(), cause, false, false);
    }
  }
}
