package io.rpcx.client.internal.call;

import io.rpcx.core.CancelledException;
import io.rpcx.core.InternalErrorException;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import io.rpcx.core.internal.stream.CreditWindow;
import io.rpcx.core.internal.stream.StreamReceiver;
import java.util.concurrent.Flow;

/**
 * One call of a server-stream (or bidirectional) method, for one subscriber (docs/PROTOCOL.md,
 * section 5): the attempt the connection keeps among its pending calls until the stream ends, and
 * the {@link StreamReceiver} its subscriber subscribes to. Never retried.
 *
 * <p>Credit: the request is sent when the subscriber first requests, granting {@code
 * initial_credit}; then {@code STREAM_CREDIT} as messages are delivered, as the receiver's {@link
 * CreditWindow} allows: the credit not yet used plus the messages received and not yet delivered
 * never exceed the client's {@code maxStreamWindow}, nor (counted at the largest message seen) its
 * {@code maxStreamBufferedBytes}. Every signal to the subscriber comes from the receiver's drain,
 * on the client's callback executor, in the context the call was made in.
 *
 * <p>A bidirectional stream also has an {@link Upload} of its stream argument, started once the
 * request is sent and ended with the call. Thread-safe.
 */
final class ServerStreamCall extends PendingCall implements StreamReceiver.Side {
  private final StreamReceiver receiver;
  private final boolean hasDeadline;
  /** The upload of a bidirectional stream's argument, or {@code null}. */
  private final Upload upload;
  private int initialCredit;
  /** The connection the request went to, published once sent for a cancel from any thread. */
  private volatile CallOwner sentOn;

  ServerStreamCall(ClientMethod method, Invocation invocation, boolean upload) {
    super(method, invocation, 1, null);
    this.hasDeadline = invocation.inherited() || method.timeoutMillis() > 0;
    this.receiver =
        new StreamReceiver(
            this,
            new CreditWindow(
                method.maxStreamWindow(), method.maxStreamBufferedBytes(), method.sizeHints()));
    receiver.context(invocation.caller());
    this.upload = upload ? Upload.attach(this) : null;
  }

  /** Hands {@code subscriber} the stream; the request goes out when it first requests. */
  void subscribe(Flow.Subscriber<? super Object> subscriber) {
    receiver.subscribe(subscriber);
  }

  @Override
  public StreamReceiver receiver() {
    return receiver;
  }

  @Override
  public boolean needsTimer() {
    return hasDeadline;
  }

  @Override
  public int initialCredit() {
    return initialCredit;
  }

  // StreamReceiver.Side

  @Override
  public String description() {
    return "the stream of " + model().displayName();
  }

  @Override
  public void execute(Runnable task) {
    method.completions().run(task);
  }

  @Override
  public void open(int credit) {
    initialCredit = credit;
    if (remainingNanos() <= 0) {
      timeOut();
      startUpload(null);
      return;
    }
    try {
      method.channel().send(this);
    } catch (RpcxException e) {
      fail(e);
      startUpload(null);
      return;
    }
    sentOn = owner();
    startUpload(sentOn); // a bidirectional stream: its argument goes up as the server grants
    if (isFinished()) {
      abandonStream(); // cancelled while it was being sent: tell the server, which may have it
    }
  }

  private void startUpload(CallOwner owner) {
    if (upload != null) {
      upload.start(owner);
    }
  }

  @Override
  public void grant(int credit) {
    CallOwner current = sentOn;
    if (current != null) {
      current.sendCredit(this, credit);
    }
  }

  @Override
  public Object decode(StreamReceiver.Message message) {
    return method.decode(message, peerSchemas(), address());
  }

  @Override
  public void overrun(long received, long granted) {
    fail(
        new InternalErrorException(
            "the server at " + address() + " sent " + received + " messages on a window of "
                + granted + " on the stream of " + model().displayName(),
            null));
    abandonStream();
  }

  @Override
  public void cancelled(Throwable reason) {
    cancelCall(
        reason == null
            ? new CancelledException(model().displayName() + " was cancelled by its subscriber", null)
            : new CancelledException(String.valueOf(reason.getMessage()), reason));
  }

  @Override
  public void decodeFailed(Throwable failure) {
    cancelled(failure);
  }

  /** The calling context (or the caller) cancelled the stream: its subscriber hears why. */
  @Override
  void cancel(String reason) {
    CancelledException why =
        new CancelledException(model().displayName() + " was cancelled: " + reason, null);
    if (finish()) {
      ended(CallOutcome.OTHER, why, 0);
      receiver.fail(why);
      abandonStream();
    }
  }

  /** Ends the call as cancelled and tells the server, once; nothing if it has ended already. */
  private void cancelCall(RpcxException why) {
    if (finish()) {
      ended(CallOutcome.OTHER, why, 0);
      abandonStream();
    }
  }

  private void abandonStream() {
    CallOwner current = sentOn;
    if (current != null) {
      current.cancelStream(this, "");
    }
  }

  // The call's end.

  @Override
  public void streamEnded(
      StatusCode code,
      String message,
      String exceptionClass,
      byte[] exceptionValue,
      StackTraceElement[] stackTrace) {
    RpcxException failure = null;
    Throwable thrown = null;
    if (code == StatusCode.TIMEOUT) {
      // The server's timer and the client's fire together: the subscriber gets the same either way.
      failure = method.timeoutException(this);
      thrown = failure;
    } else if (code != null) {
      failure = method.failure(code, message, exceptionClass, address(), true);
      thrown = method.thrown(failure, message, exceptionValue, stackTrace, peerSchemas());
    }
    if (finish()) {
      ended(CallOutcome.REPLIED, failure, 0);
      receiver.finish(thrown);
    }
  }

  @Override
  void onReply(ReplyEnvelope envelope, Payload payload) {
    payload.release();
    receiver.fail(
        new InternalErrorException(
            "the server at " + address() + " answered the stream " + model().displayName()
                + " with a REPLY carrying a value",
            null));
  }

  @Override
  void onFailure(RpcxException failure, Throwable thrown) {
    receiver.fail(thrown); // a refusal before the stream started, or a local failure
  }

  @Override
  void onArgumentFailure(Throwable error) {
    receiver.fail(error);
  }

  @Override
  void onTimeout() {
    receiver.fail(method.timeoutException(this));
  }
}
