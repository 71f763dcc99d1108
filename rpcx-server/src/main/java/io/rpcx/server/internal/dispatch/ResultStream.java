package io.rpcx.server.internal.dispatch;

import io.rpcx.core.InternalErrorException;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.protocol.ThrownException;
import io.rpcx.core.internal.stream.StreamPublisher;
import io.rpcx.core.internal.stream.StreamSender;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's side of one server stream (docs/PROTOCOL.md, section 5): the {@link StreamSender} of
 * the implementation's publisher (or {@code Stream}, read as the credit allows), sending each
 * element as a {@code STREAM_MESSAGE} within the client's credit, and the stream's one end: {@code
 * STREAM_END} when the publisher completes or fails, or when RPCX ends the call ({@link #fail}:
 * its deadline passed, the server shuts down); nothing when the client cancelled or the
 * connection is gone. Thread-safe: credit and RPCX's end come from the event loop, elements from
 * the publisher's threads.
 *
 * <p>{@link #ended()} completes when the stream ends, with null or the failure the call ends with:
 * the call's interceptors see it as the end of one call.
 */
final class ResultStream implements StreamSender.Side {
  private static final Logger logger = LoggerFactory.getLogger(ResultStream.class);

  private final ServerConnection connection;
  private final ServerMethod method;
  private final Executor executor;
  private final StreamOutput output;
  private final StreamSender sender;
  private final CompletableFuture<Object> ended = new CompletableFuture<>();
  private final AtomicBoolean endClaimed = new AtomicBoolean();
  private volatile boolean started;
  /**
   * The stream's end was sent, or must not be (the client is gone); under this stream's monitor,
   * which also orders each message before the end.
   */
  private boolean endWritten;
  /** Run before RPCX's own failure end is sent (set by the call, once, before the stream starts). */
  private volatile Runnable beforeFailureEnd = () -> {};

  /** A stream of {@code method} for request {@code streamId}, with the request's initial credit. */
  ResultStream(
      ServerConnection connection,
      ServerMethod method,
      int streamId,
      int initialCredit,
      Executor executor) {
    this.connection = connection;
    this.method = method;
    this.executor = executor;
    this.output = connection.replies().streamOutput(streamId, method);
    this.sender = new StreamSender(this, initialCredit);
  }

  /** Where the client's credit goes. */
  StreamSender sender() {
    return sender;
  }

  /** Completes when the stream has ended, however it did; see the class comment. */
  CompletableFuture<Object> ended() {
    return ended;
  }

  /** Whether the implementation's publisher was obtained: from then on the stream ends with STREAM_END. */
  boolean started() {
    return started;
  }

  /** Whether the stream has ended (or been cancelled). */
  boolean isEnded() {
    return endClaimed.get();
  }

  /**
   * Subscribes to what the implementation returned: a {@code Flow.Publisher}, or a {@code Stream}
   * read as the client's credit allows.
   */
  @SuppressWarnings("unchecked")
  void start(Object result) {
    started = true;
    sender.start(
        result instanceof Stream
            ? new StreamPublisher((Stream<Object>) result)
            : (Flow.Publisher<Object>) result);
  }

  /**
   * Sends the stream's end, once: OK when {@code code} is null. Called by the call when the call it
   * ran ends; nothing is sent if the stream has been ended otherwise already.
   */
  void end(StatusCode code, String message, ThrownException thrown) {
    synchronized (this) {
      endClaimed.set(true);
      if (!endWritten) {
        endWritten = true;
        output.end(code, message, thrown);
      }
    }
  }

  /**
   * Runs just before RPCX ends the stream with a failure of its own ({@link #fail}): the call
   * gives its place under the connection's limit back before the client can read the end.
   */
  void beforeFailureEnd(Runnable hook) {
    this.beforeFailureEnd = hook;
  }

  /**
   * Ends the stream because of RPCX, not the publisher: cancels the publisher, sends {@code
   * STREAM_END} with {@code failure} if {@code sendEnd} (else nothing more: the client is gone),
   * and ends the call with it.
   */
  void fail(StatusCode code, RpcxException failure, boolean sendEnd) {
    if (!endClaimed.compareAndSet(false, true)) {
      return;
    }
    sender.close();
    synchronized (this) {
      if (!endWritten) {
        endWritten = true;
        if (sendEnd) {
          beforeFailureEnd.run();
          output.end(code, String.valueOf(failure.getMessage()), null);
        }
      }
    }
    ended.completeExceptionally(failure);
  }

  // StreamSender.Side

  @Override
  public String description() {
    return "the publisher of " + method.model().displayName();
  }

  @Override
  public void execute(Runnable task) {
    if (executor == null) {
      task.run();
      return;
    }
    try {
      executor.execute(task);
    } catch (RejectedExecutionException e) {
      task.run();
    }
  }

  @Override
  public boolean send(long number, Object element) throws CodecException {
    synchronized (this) { // never after the end
      return endWritten || output.message(element);
    }
  }

  @Override
  public void completed() {
    if (endClaimed.compareAndSet(false, true)) {
      ended.complete(null);
    }
  }

  @Override
  public void failed(Throwable error) {
    // The call's end (STREAM_END REMOTE_FAILURE, logged like an implementation's exception) is
    // sent by the call the future completes.
    if (endClaimed.compareAndSet(false, true)) {
      ended.completeExceptionally(new ServerCall.ImplementationFailure(error));
    }
  }

  @Override
  public void refused(long number, Exception problem) {
    if (problem == null) {
      fail(
          StatusCode.RESOURCE_EXHAUSTED,
          new ResourceExhaustedException(
              method.model().displayName() + ": an element is over the frame limit"),
          true);
      return;
    }
    String reason =
        problem instanceof CodecException ? problem.getMessage() : problem.toString();
    String text =
        method.model().displayName() + " ran, but an element of its stream could not be encoded: "
            + reason;
    logger.warn("{} (for {})", text, connection.remoteAddress());
    fail(StatusCode.INTERNAL, new InternalErrorException(text, problem), true);
  }
}
