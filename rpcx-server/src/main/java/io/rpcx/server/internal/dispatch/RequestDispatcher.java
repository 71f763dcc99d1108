package io.rpcx.server.internal.dispatch;

import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ProtocolException;
import io.rpcx.core.internal.protocol.RequestEnvelope;
import io.rpcx.server.ServerInterceptor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes each received request to its method. Runs on the connection's event loop and does only
 * cheap work there: it reads the envelope, finds the method by its published names, and answers
 * unknown services and methods at once, before any argument is decoded. Everything else (decoding
 * arguments, running the implementation, encoding the result) runs on the executor in a {@link
 * ServerCall}.
 */
public final class RequestDispatcher {
  private static final Logger logger = LoggerFactory.getLogger(RequestDispatcher.class);

  private final PublishedServices registry;
  private final Executor executor;
  private final int maxMetadataBytes;
  // What every ServerCall of this server shares.
  final CallTracker tracker;
  final int maxDepth;
  final List<ServerInterceptor> interceptors;
  final ExceptionLog exceptionLog;

  /**
   * @param executor runs the calls; {@code null} runs them on the event loop
   */
  public RequestDispatcher(
      PublishedServices registry,
      Executor executor,
      CallTracker tracker,
      int maxMetadataBytes,
      int maxDepth,
      List<ServerInterceptor> interceptors,
      ExceptionLog exceptionLog) {
    this.registry = registry;
    this.executor = executor;
    this.tracker = tracker;
    this.maxMetadataBytes = maxMetadataBytes;
    this.maxDepth = maxDepth;
    this.interceptors = List.copyOf(interceptors);
    this.exceptionLog = exceptionLog;
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
        connection.sendError((int) e.requestId(), e.status(), e.getMessage(), "");
      }
      return;
    }
    int requestId = envelope.requestId();
    // A draining server refuses every new call the same way, known method or not: the caller may
    // retry it on another server, which may publish what this one does not.
    String drainReason = connection.drainReason();
    if (drainReason != null) {
      payload.release();
      connection.sendError(
          requestId,
          StatusCode.UNAVAILABLE,
          drainReason + "; " + envelope.service() + "/" + envelope.method() + " was not processed",
          "");
      return;
    }
    Map<String, ServerMethod> methods = registry.service(envelope.service());
    ServerMethod method = methods == null ? null : methods.get(envelope.method());
    if (method == null) {
      payload.release();
      String problem =
          methods == null
              ? "unknown service '" + envelope.service() + "'"
              : "service '" + envelope.service() + "' has no method '" + envelope.method() + "'";
      connection.sendError(requestId, StatusCode.NOT_FOUND, problem, "");
      return;
    }
    if (!connection.tryStartCall()) {
      payload.release();
      connection.sendError(
          requestId,
          StatusCode.RESOURCE_EXHAUSTED,
          "too many calls in flight on this connection (limit "
              + connection.maxConcurrentCalls() + "); " + method.model().displayName()
              + " was not processed",
          "");
      return;
    }
    ServerCall call =
        new ServerCall(connection, method, envelope, payload, receivedNanos, this);
    tracker.started();
    if (executor == null) {
      call.run();
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
}
