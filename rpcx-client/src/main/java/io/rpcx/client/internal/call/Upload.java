package io.rpcx.client.internal.call;

import io.rpcx.core.BadRequestException;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.RpcxException;
import io.rpcx.core.internal.stream.StreamSender;
import java.util.concurrent.Flow;

/**
 * The client's side of a stream argument (a client or bidirectional stream; docs/PROTOCOL.md,
 * section 5): the {@link StreamSender} of the caller's {@code Flow.Publisher}, started once the
 * request is sent, whose elements go to the call's connection as {@code STREAM_MESSAGE}s within the
 * server's credit and whose completion is {@code STREAM_END}. The publisher's {@code onError}
 * becomes {@code STREAM_CANCEL} with the error's text, and the call fails with that error itself;
 * a publisher emitting more than requested fails the call with an {@link IllegalStateException}.
 * When the call ends first (its reply or {@code STREAM_END}, a deadline, a cancel, a lost
 * connection), the sender is closed and the caller's publisher cancelled. Thread-safe.
 */
final class Upload implements StreamSender.Side {
  private final PendingCall call;
  private final Flow.Publisher<Object> publisher;
  private final StreamSender sender;
  private volatile CallOwner owner;

  private Upload(PendingCall call, Flow.Publisher<Object> publisher) {
    this.call = call;
    this.publisher = publisher;
    this.sender = new StreamSender(this, 0);
  }

  /**
   * The upload of {@code call}'s stream argument, attached to the call before it is sent (credit
   * may come before {@link #start} runs).
   */
  @SuppressWarnings("unchecked")
  static Upload attach(PendingCall call) {
    int index = call.model().streamParameterIndex();
    Upload upload = new Upload(call, (Flow.Publisher<Object>) call.args()[index]);
    call.sender(upload.sender);
    return upload;
  }

  /**
   * Subscribes to the caller's publisher, the call having been sent on {@code owner}; if it was
   * not sent ({@code owner} is null), nothing. If the call has ended already, the publisher is
   * subscribed and cancelled at once.
   */
  void start(CallOwner owner) {
    if (owner == null) {
      sender.close();
      return;
    }
    this.owner = owner;
    if (call.isFinished()) {
      sender.close();
    }
    sender.start(publisher);
  }

  // StreamSender.Side

  @Override
  public String description() {
    return "the stream argument of " + call.model().displayName();
  }

  @Override
  public void execute(Runnable task) {
    call.method.completions().run(task);
  }

  @Override
  public boolean send(long number, Object element) throws Exception {
    return owner.sendStreamMessage(call, element);
  }

  @Override
  public void completed() {
    owner.sendStreamEnd(call);
  }

  @Override
  public void refused(long number, Exception problem) {
    RpcxException failure =
        problem == null
            ? new ResourceExhaustedException(
                "element " + number + " of " + description() + " is over the frame limit")
            : new BadRequestException(
                "cannot encode element " + number + " of " + description() + ": "
                    + problem.getMessage(),
                problem);
    call.fail(failure);
    owner.cancelStream(call, failure.getMessage());
  }

  @Override
  public void failed(Throwable error) {
    call.failFromArgument(error);
    owner.cancelStream(
        call, String.valueOf(error.getMessage() == null ? error : error.getMessage()));
  }
}
