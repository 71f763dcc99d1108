package io.rpcx.server.internal.dispatch;

import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ProtocolException;
import io.rpcx.core.internal.call.CallRequest;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.call.RequestEnvelope;
import io.rpcx.server.RefusalListener;
import io.rpcx.server.RefusedCall;
import io.rpcx.server.ServerInterceptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes each received request to its method. Runs on the connection's event loop: it reads the
 * envelope, finds the method by its published names, and answers unknown services and methods at
 * once, before any argument is decoded. Everything else (decoding arguments, running the
 * interceptors and the implementation, encoding the result) is a {@link ServerCall}, of the kind
 * its method's shape takes ({@link ServerMethod}), which runs where the method was placed when the
 * server was built: on the executor, or, for a method that never blocks (or every method, without
 * an executor), right here on the event loop, watched by the {@link EventLoopWatch}.
 */
public final class RequestDispatcher {
  private static final Logger logger = LoggerFactory.getLogger(RequestDispatcher.class);

  private final PublishedServices registry;
  private final Executor executor;
  private final EventLoopWatch watch;
  private final int maxMetadataBytes;
  // What every ServerCall of this server shares.
  final CallTracker tracker;
  final int maxDepth;
  final List<ServerInterceptor> interceptors;
  /** The interceptors that are also {@link ReplyFault}s (a test kit's), found once; usually empty. */
  final ReplyFault[] replyFaults;
  final ExceptionLog exceptionLog;
  /** Whether a failure carries the stack trace of what the implementation threw. */
  final boolean sendStackTraces;
  private final RefusalListener[] refusalListeners;
  private final LongAdder refusals = new LongAdder();
  private final int maxStreamWindow;
  private final long maxStreamBufferedBytes;

  /**
   * A dispatcher whose stream arguments (client and bidirectional streams) are received with a
   * window of {@code maxStreamWindow} messages and {@code maxStreamBufferedBytes} held per stream.
   *
   * @param executor runs the calls of the methods that may block; {@code null} runs every call on
   *     the event loop
   * @param watch where calls run on an event loop are watched
   */
  public RequestDispatcher(
      PublishedServices registry,
      Executor executor,
      EventLoopWatch watch,
      CallTracker tracker,
      int maxMetadataBytes,
      int maxDepth,
      List<ServerInterceptor> interceptors,
      ExceptionLog exceptionLog,
      List<RefusalListener> refusalListeners,
      int maxStreamWindow,
      long maxStreamBufferedBytes,
      boolean sendStackTraces) {
    this.sendStackTraces = sendStackTraces;
    this.maxStreamWindow = maxStreamWindow;
    this.maxStreamBufferedBytes = maxStreamBufferedBytes;
    this.registry = registry;
    this.executor = executor;
    this.watch = watch;
    this.tracker = tracker;
    this.maxMetadataBytes = maxMetadataBytes;
    this.maxDepth = maxDepth;
    this.interceptors = List.copyOf(interceptors);
    List<ReplyFault> faults = new ArrayList<>();
    for (ServerInterceptor interceptor : this.interceptors) {
      if (interceptor instanceof ReplyFault fault) {
        faults.add(fault);
      }
    }
    this.replyFaults = faults.toArray(new ReplyFault[0]);
    this.exceptionLog = exceptionLog;
    this.refusalListeners = refusalListeners.toArray(new RefusalListener[0]);
  }

  /** Calls refused before they ran, since the server started. */
  public long refusedCalls() {
    return refusals.sum();
  }

  /** Handles one request frame; takes ownership of {@code payload}. */
  public void onRequest(ServerConnection connection, Payload payload) {
    long receivedNanos = System.nanoTime();
    RequestEnvelope envelope;
    try {
      envelope = RequestEnvelope.parse(payload, maxMetadataBytes);
    } catch (ProtocolException e) {
      payload.release();
      if (e.requestId() == ProtocolException.NO_REQUEST_ID) {
        connection.closeForProtocolError(StatusCode.BAD_REQUEST, e.getMessage());
      } else {
        connection.replies().sendError((int) e.requestId(), e.status(), e.getMessage(), null);
      }
      return;
    }
    dispatch(connection, envelope, receivedNanos);
  }

  /**
   * Dispatches one received call, whatever its wire protocol; takes ownership of its bytes. On the
   * connection's event loop.
   */
  public void dispatch(ServerConnection connection, CallRequest request, long receivedNanos) {
    int requestId = request.requestId();
    Map<String, ServerMethod> methods = registry.service(request.service());
    ServerMethod method = methods == null ? null : methods.get(request.method());
    if (method != null && method.isStream() && connection.isStreamOpen(requestId)) {
      // Dispatched, it would hide the open stream from its frames and from the connection's end.
      request.release();
      connection.closeForProtocolError(
          StatusCode.BAD_REQUEST,
          "request " + Integer.toUnsignedString(requestId) + " (" + method.model().displayName()
              + ") reuses the id of a stream still open on this connection");
      return;
    }
    // A draining server refuses every new call the same way, known method or not: the caller may
    // retry it on another server, which may publish what this one does not.
    String drainReason = connection.drainReason();
    if (drainReason != null) {
      request.release();
      refuse(
          connection,
          request,
          method != null,
          StatusCode.UNAVAILABLE,
          drainReason + "; " + request.service() + "/" + request.method() + " was not processed");
      return;
    }
    if (method == null) {
      request.release();
      String problem =
          methods == null
              ? "unknown service '" + request.service() + "'"
              : "service '" + request.service() + "' has no method '" + request.method() + "'";
      refuse(connection, request, false, StatusCode.NOT_FOUND, problem);
      return;
    }
    if (!connection.tryStartCall()) {
      request.release();
      refuse(
          connection,
          request,
          true,
          StatusCode.RESOURCE_EXHAUSTED,
          "too many calls in flight on this connection (limit "
              + connection.maxConcurrentCalls() + "); " + method.model().displayName()
              + " was not processed");
      return;
    }
    // Read only for a stream with a deadline: a unary call pays no clock read here.
    int timeoutMillis = request.timeoutMillis();
    long deadlineNanos =
        timeoutMillis > 0 && method.isStream()
            ? remainingNanos(timeoutMillis, receivedNanos)
            : ServerCall.NO_DEADLINE;
    ServerCall call = method.newCall(connection, request, receivedNanos, this);
    call.dispatched(deadlineNanos);
    tracker.started();
    Executor executor = executor(method);
    if (executor == null) {
      runHere(call);
      return;
    }
    try {
      executor.execute(call);
    } catch (RejectedExecutionException e) {
      logger.warn(
          "Rejected {} from {}: {}",
          method.model().displayName(),
          connection.remoteAddress(),
          e.getMessage());
      call.reject(
          StatusCode.RESOURCE_EXHAUSTED,
          "the server is overloaded (" + e.getMessage() + "); " + method.model().displayName()
              + " was not processed");
    }
  }

  /** The model of the method published as {@code service/method}, or {@code null}. */
  public MethodModel model(String service, String method) {
    Map<String, ServerMethod> methods = registry.service(service);
    ServerMethod found = methods == null ? null : methods.get(method);
    return found == null ? null : found.model();
  }

  /**
   * Where the calls of {@code method} run, decided when the server was built: the executor, or
   * {@code null} for the event loop.
   */
  Executor executor(ServerMethod method) {
    return method.runsOnEventLoop() ? null : executor;
  }

  /**
   * Runs {@code call} on this event loop, watched. A failure it did not handle is logged and ends
   * the call (its caller is answered, its place among the calls in flight given back), never
   * thrown into the connection's pipeline, which would close the connection over one call.
   */
  private void runHere(ServerCall call) {
    EventLoopWatch.Slot slot = null;
    try {
      slot = watch.slot();
      if (slot != null) {
        slot.enter(call);
      }
      call.run();
    } catch (RuntimeException | Error e) {
      logger.error("A call failed outside its own error handling", e);
      call.complete(null, e);
    } finally {
      if (slot != null) {
        slot.exit();
      }
    }
  }

  /** Nanoseconds from now to the deadline of a request received at {@code receivedNanos}. */
  static long remainingNanos(int timeoutMillis, long receivedNanos) {
    return TimeUnit.MILLISECONDS.toNanos(timeoutMillis) - (System.nanoTime() - receivedNanos);
  }

  /** The stream argument of {@code call}. */
  ArgumentStream argumentStream(StreamingCall call) {
    return new ArgumentStream(
        call, executor(call.method), maxStreamWindow, maxStreamBufferedBytes, maxDepth);
  }

  /** Answers the request with an error, without running anything, and says so to the listeners. */
  private void refuse(
      ServerConnection connection,
      CallRequest request,
      boolean methodKnown,
      StatusCode status,
      String reason) {
    // Counted and told first, so that a client that has its answer finds the refusal recorded.
    refused(connection, request, methodKnown, status, reason);
    connection.replies().sendError(request.requestId(), status, reason, null);
  }

  /** Counts a call refused before it ran, and tells the listeners. */
  void refused(
      ServerConnection connection,
      CallRequest request,
      boolean methodKnown,
      StatusCode status,
      String reason) {
    refusals.increment();
    if (refusalListeners.length == 0) {
      return;
    }
    RefusedCall refused =
        new RefusedCall(
            request.service(),
            request.method(),
            methodKnown,
            status,
            reason,
            connection.remoteAddress());
    for (RefusalListener listener : refusalListeners) {
      try {
        listener.onRefused(refused);
      } catch (RuntimeException e) {
        logger.warn("Refusal listener {} failed on {}", listener.getClass().getName(), refused, e);
      }
    }
  }
}
