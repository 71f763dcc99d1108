package io.rpcx.server.internal.dispatch;

import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.ByteArrayProtoWriter;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.protocol.ReplyWriter;
import io.rpcx.core.internal.protocol.ThrownException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A connection for dispatcher tests without a network: records, in order, what the dispatcher did
 * with it ({@link #events}) and counts the outcomes of requests (a reply, an error reply, a reset,
 * a close for a protocol error). It serves services without streams.
 */
class RecordingConnection implements ServerConnection, Replies {
  /** Replies, error replies, resets and closes for protocol errors. */
  final AtomicInteger outcomes = new AtomicInteger();
  /**
   * What happened, in order: {@code start}, {@code answered}, {@code reply}, {@code error CODE},
   * {@code finished}, {@code reset}, {@code protocol error CODE}.
   */
  final List<String> events = new CopyOnWriteArrayList<>();

  @Override
  public Replies replies() {
    return this;
  }

  @Override
  public void sendValue(int requestId, ServerMethod method, Object value) throws CodecException {
    // Encoding the result must work: it went through the same codecs on the way in.
    try {
      ReplyWriter.writeValue(
          new ByteArrayProtoWriter(), requestId, method.model().resultCodec(), value, 0);
    } catch (java.io.IOException e) {
      throw new AssertionError("a decoded value could not be encoded again", e);
    }
    events.add("reply");
    outcomes.incrementAndGet();
  }

  @Override
  public void sendError(int requestId, StatusCode code, String message, ThrownException thrown) {
    events.add("error " + code);
    outcomes.incrementAndGet();
  }

  @Override
  public void callStarted(CancellableCall call) {}

  @Override
  public void callEnded(CancellableCall call) {}

  @Override
  public StreamOutput streamOutput(int streamId, ServerMethod method) {
    throw new AssertionError("these tests serve no stream");
  }

  @Override
  public void streamOpened(OpenStream stream) {
    throw new AssertionError("these tests serve no stream");
  }

  @Override
  public void streamEnded(OpenStream stream) {}

  @Override
  public boolean isStreamOpen(int streamId) {
    throw new AssertionError("these tests serve no stream");
  }

  @Override
  public void sendStreamCredit(int streamId, int messages) {
    throw new AssertionError("these tests serve no stream");
  }

  @Override
  public java.util.concurrent.Future<?> schedule(Runnable task, long delayNanos) {
    throw new AssertionError("these tests serve no stream");
  }

  @Override
  public PeerSchemas peerSchemas() {
    return null;
  }

  @Override
  public String drainReason() {
    return null;
  }

  @Override
  public boolean tryStartCall() {
    events.add("start");
    return true;
  }

  @Override
  public void callAnswered() {
    events.add("answered");
  }

  @Override
  public void callFinished() {
    events.add("finished");
  }

  @Override
  public int maxConcurrentCalls() {
    return Integer.MAX_VALUE;
  }

  @Override
  public void reset() {
    events.add("reset");
    outcomes.incrementAndGet();
  }

  @Override
  public String remoteAddress() {
    return "test peer";
  }

  @Override
  public void closeForProtocolError(StatusCode code, String problem) {
    events.add("protocol error " + code);
    outcomes.incrementAndGet();
  }
}
