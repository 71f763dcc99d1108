package io.rpcx.server.internal.dispatch;

import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.RequestEnvelope;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One call being served: decodes the arguments, drops the call if its caller's timeout has already
 * passed, runs the implementation, and sends the result or the failure back. Runs on the server's
 * executor. Exactly one reply is sent per call, except for calls dropped after their timeout.
 */
final class ServerCall implements Runnable {
  private static final Logger logger = LoggerFactory.getLogger(ServerCall.class);

  private final ServerConnection connection;
  private final ServerMethod method;
  private final RequestEnvelope envelope;
  private final long receivedNanos;
  private final int maxDepth;
  private final CallTracker tracker;
  private Payload payload;

  ServerCall(
      ServerConnection connection,
      ServerMethod method,
      RequestEnvelope envelope,
      Payload payload,
      long receivedNanos,
      int maxDepth,
      CallTracker tracker) {
    this.connection = connection;
    this.method = method;
    this.envelope = envelope;
    this.payload = payload;
    this.receivedNanos = receivedNanos;
    this.maxDepth = maxDepth;
    this.tracker = tracker;
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
      tracker.finished();
      return;
    }
    Object[] args;
    try {
      args =
          ArgumentDecoder.decode(
              model, envelope, payload.buffer(), maxDepth, connection.peerSchemas());
    } catch (CodecException e) {
      logger.debug("Bad request from {}: {}", connection.remoteAddress(), e.getMessage());
      reject(StatusCode.BAD_REQUEST, e.getMessage());
      return;
    } finally {
      releasePayload();
    }
    Object result;
    try {
      result = method.invoke(args);
    } catch (Throwable t) {
      complete(null, t);
      return;
    }
    if (model.isAsync()) {
      if (result == null) {
        complete(null, new NullPointerException(model.displayName() + " returned a null future"));
      } else {
        ((CompletionStage<?>) result).whenComplete(this::complete);
      }
    } else {
      complete(result, null);
    }
  }

  /** Answers with an error without running the implementation. */
  void reject(StatusCode code, String message) {
    releasePayload();
    connection.sendError(envelope.requestId(), code, message, "");
    tracker.finished();
  }

  private void complete(Object result, Throwable failure) {
    try {
      if (failure == null) {
        sendResult(result);
      } else {
        sendFailure(failure);
      }
    } finally {
      tracker.finished();
    }
  }

  private void sendResult(Object result) {
    MethodModel model = method.model();
    try {
      connection.sendValue(envelope.requestId(), model, result);
    } catch (CodecException e) {
      logger.warn("Cannot encode the result of {}: {}", model.displayName(), e.getMessage());
      connection.sendError(
          envelope.requestId(),
          StatusCode.INTERNAL,
          "the server could not encode the result of " + model.displayName() + ": "
              + e.getMessage(),
          "");
    } catch (RuntimeException e) {
      logger.warn("Cannot encode the result of {}", model.displayName(), e);
      connection.sendError(
          envelope.requestId(),
          StatusCode.INTERNAL,
          "the server could not encode the result of " + model.displayName() + ": " + e,
          "");
    }
  }

  private void sendFailure(Throwable failure) {
    if (failure instanceof CompletionException && failure.getCause() != null) {
      failure = failure.getCause();
    }
    MethodModel model = method.model();
    boolean declared = false;
    for (Class<?> type : model.declaredExceptions()) {
      declared |= type.isInstance(failure);
    }
    if (declared) {
      logger.info("{} threw {}", model.displayName(), failure.toString());
    } else {
      logger.warn("{} failed for {}", model.displayName(), connection.remoteAddress(), failure);
    }
    String message = failure.getMessage() == null ? "" : failure.getMessage();
    connection.sendError(
        envelope.requestId(), StatusCode.REMOTE_FAILURE, message, failure.getClass().getName());
  }

  private void releasePayload() {
    if (payload != null) {
      payload.release();
      payload = null;
    }
  }
}
