package io.rpcx.server.internal.dispatch;

import io.rpcx.core.BadRequestException;
import io.rpcx.core.CancelledException;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.stream.CreditWindow;
import io.rpcx.core.internal.stream.StreamReceiver;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;

/**
 * The server's side of a stream argument (a client or bidirectional stream; docs/PROTOCOL.md,
 * section 5): the {@link StreamReceiver} the implementation receives for its {@code
 * Flow.Publisher<T>} parameter, fed by the client's {@code STREAM_MESSAGE} frames, granting the
 * client credit ({@code STREAM_CREDIT}) once the implementation's subscriber first requests, and
 * decoding each message as it is delivered. Held messages stay undecoded in their received
 * buffers, which count against the connection's inbound budget until delivered. A client that
 * breaks flow control, or sends a message that cannot be decoded, ends the call. Thread-safe.
 */
final class ArgumentStream implements StreamReceiver.Side {
  private final StreamingCall call;
  private final Executor executor;
  private final int maxDepth;
  private final ValueCodec<Object> codec;
  private final StreamReceiver receiver;
  /** Messages decoded; the drain's own. */
  private long delivered;

  ArgumentStream(
      StreamingCall call, Executor executor, int window, long maxBufferedBytes, int maxDepth) {
    this.call = call;
    this.executor = executor;
    this.maxDepth = maxDepth;
    this.codec = call.method.model().streamElementCodec();
    this.receiver =
        new StreamReceiver(
            this, new CreditWindow(window, maxBufferedBytes, call.method.sizeHints()));
  }

  /** The publisher the implementation gets, and where the client's messages go. */
  StreamReceiver receiver() {
    return receiver;
  }

  /**
   * The call has ended (its reply was sent, or it was refused), with {@code failure} or null: a
   * subscriber still waiting gets {@code onError} (the failure if RPCX ended the call, else a
   * {@link CancelledException} saying the call ended), and messages held or still to come are
   * dropped.
   */
  void callEnded(Throwable failure) {
    receiver.failIfOpen(
        failure instanceof RpcxException
            ? failure
            : new CancelledException(
                call.method.model().displayName() + " ended before its stream argument did",
                null));
  }

  // StreamReceiver.Side

  @Override
  public String description() {
    return "the stream argument of " + call.method.model().displayName();
  }

  /** Runs {@code task} on the server's executor; on the common pool if it refuses. */
  @Override
  public void execute(Runnable task) {
    if (executor == null) {
      task.run(); // the server runs implementations on its network threads
      return;
    }
    try {
      executor.execute(task);
    } catch (RejectedExecutionException e) {
      ForkJoinPool.commonPool().execute(task); // never the event loop
    }
  }

  @Override
  public void open(int credit) {
    grant(credit);
  }

  @Override
  public void grant(int credit) {
    call.connection.replies().sendStreamCredit(call.streamId(), credit);
  }

  @Override
  public Object decode(StreamReceiver.Message message) {
    delivered++;
    try {
      Object value =
          message.decode(codec, new DecodeContext(maxDepth, call.connection.peerSchemas()));
      return value == null ? codec.absentValue() : value;
    } catch (Exception e) {
      throw new BadRequestException(
          "cannot decode element " + delivered + " of " + description() + ": " + e.getMessage(),
          e);
    }
  }

  @Override
  public void overrun(long received, long granted) {
    call.end(
        StatusCode.RESOURCE_EXHAUSTED,
        new ResourceExhaustedException(
            "the client sent " + received + " messages on a window of " + granted + " on "
                + description()),
        true);
  }

  @Override
  public void cancelled(Throwable reason) {
    // The implementation wants no more: later messages are dropped, the call goes on.
  }

  @Override
  public void decodeFailed(Throwable failure) {
    call.end(StatusCode.BAD_REQUEST, (BadRequestException) failure, true);
  }
}
