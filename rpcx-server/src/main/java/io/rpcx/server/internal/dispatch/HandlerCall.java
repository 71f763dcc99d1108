package io.rpcx.server.internal.dispatch;

import io.rpcx.core.BadRequestException;
import io.rpcx.core.CallTimeoutException;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.ByteArrayProtoWriter;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.codec.Values;
import io.rpcx.core.internal.codec.WriteLimitException;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.protocol.Failures;
import io.rpcx.core.internal.protocol.SizeHints;
import io.rpcx.core.internal.protocol.ThrownException;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One call made through {@code HttpExchange.call}, from its subscription to its end. To the
 * dispatcher it is the connection of that one call ({@link ServerConnection}): the call's reply,
 * or its stream's elements and end, come to its {@link Replies} and {@link StreamOutput} and go to
 * the subscriber as value messages, while the event loop, the limit of calls in flight, the drain
 * state and the peer are those of the HTTP connection the request came on ({@link ConnectionSide}).
 * So a call over HTTP takes the path of an RPCX or gRPC call from the dispatcher on: the same
 * {@code ServerCall}s, interceptors, limits, deadlines and executor.
 *
 * <p>To the caller it is a cold {@link Flow.Publisher} of one subscriber: a reply is held until
 * requested; a stream's elements are produced only as they are requested (its credit is the
 * subscriber's demand). Thread-safe: signals to the subscriber are serialized under this object's
 * monitor.
 */
public final class HandlerCall
    implements Flow.Publisher<byte[]>, Flow.Subscription, ServerConnection, Replies, StreamOutput {
  private final RequestDispatcher dispatcher;
  private final ConnectionSide side;
  private final int maxMetadataBytes;
  private final int maxMessageSize;
  private final HandlerRequest request;
  private final long receivedNanos;

  // Under this object's monitor.
  private Flow.Subscriber<? super byte[]> subscriber;
  private boolean subscribed;
  private boolean terminated;
  private boolean cancelled;
  /** Elements requested and not yet delivered (a reply counts as one). */
  private long demand;
  /** The reply, until it is requested. */
  private byte[] reply;
  /** The failure the call ended with, until the reply before it (if any) is delivered. */
  private RpcxException failure;
  /** Whether a stream sent an element: an UNAVAILABLE end is then no longer "not processed". */
  private boolean streamStarted;
  /** The streaming call, once dispatched; null for a unary call. */
  private OpenStream open;
  /** Demand that came before the stream was open, given to it as credit when it opens. */
  private long pendingCredit;
  /** Ends a unary call when its caller's timeout passes, or null. */
  private volatile Future<?> deadline;
  /** The unary call, once dispatched and until it ends: what a cancel reaches. */
  private CancellableCall running;
  /** The method whose stream {@link #message} encodes the elements of. */
  private volatile ServerMethod streamMethod;

  /**
   * A call of {@code service/method} on the connection {@code side}, made at {@code receivedNanos}
   * (its deadline counts from then): {@code timeoutMillis} 0 for none.
   */
  public HandlerCall(
      RequestDispatcher dispatcher,
      ConnectionSide side,
      int maxMetadataBytes,
      int maxMessageSize,
      String service,
      String method,
      Map<String, String> metadata,
      int timeoutMillis,
      Supplier<byte[]> arguments,
      long receivedNanos) {
    this.dispatcher = dispatcher;
    this.side = side;
    this.maxMetadataBytes = maxMetadataBytes;
    this.maxMessageSize = maxMessageSize;
    this.request =
        new HandlerRequest(service, method, Map.copyOf(metadata), timeoutMillis, arguments);
    this.receivedNanos = receivedNanos;
  }

  // Flow.Publisher

  @Override
  public void subscribe(Flow.Subscriber<? super byte[]> subscriber) {
    synchronized (this) {
      if (subscribed) {
        subscriber.onSubscribe(NOTHING);
        subscriber.onError(
            new IllegalStateException("a call's publisher takes one subscriber: it makes one call"));
        return;
      }
      subscribed = true;
      this.subscriber = subscriber;
      subscriber.onSubscribe(this);
    }
    side.schedule(this::dispatch, 0); // the dispatcher runs on the connection's event loop
  }

  /** Hands the call to the dispatcher, or refuses it first if HTTP cannot carry it. */
  private void dispatch() {
    MethodModel model = dispatcher.model(request.service(), request.method());
    if (model != null && model.descriptor().shape().clientStreams()) {
      failed(
          new BadRequestException(
              model.displayName() + " takes a stream argument ("
                  + model.parameterCodecs()[model.streamParameterIndex()].typeName()
                  + "), which a request of one body cannot carry: call it over RPCX or gRPC"));
      return;
    }
    int metadataBytes = 0;
    for (Map.Entry<String, String> entry : request.metadata().entrySet()) {
      metadataBytes += entry.getKey().length() + entry.getValue().length();
    }
    if (metadataBytes > maxMetadataBytes) {
      failed(
          new ResourceExhaustedException(
              "request metadata exceeds " + maxMetadataBytes + " bytes (" + metadataBytes
                  + " bytes in " + request.metadata().size() + " headers)"));
      return;
    }
    int timeoutMillis = request.timeoutMillis();
    if (timeoutMillis > 0 && model != null && !model.descriptor().shape().isStream()) {
      // The server is the HTTP caller's end of the call: it answers TIMEOUT when the deadline
      // passes, as an RPCX client would throw. (A stream's deadline ends the stream itself.)
      long left = RequestDispatcher.remainingNanos(timeoutMillis, receivedNanos);
      deadline =
          side.schedule(
              () ->
                  failed(
                      new CallTimeoutException(
                          model.displayName() + " timed out after " + timeoutMillis
                              + " ms (the caller's timeout)")),
              left);
    }
    dispatcher.dispatch(this, request, receivedNanos);
  }

  // Flow.Subscription

  @Override
  public void request(long n) {
    OpenStream stream;
    long credit;
    synchronized (this) {
      if (terminated) {
        return;
      }
      if (n <= 0) {
        cancelStream("the subscriber requested " + n);
        terminate(
            new IllegalArgumentException("request(" + n + "): Flow's rule 3.9 asks for n > 0"));
        return;
      }
      demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
      deliver();
      stream = open;
      if (stream == null) {
        pendingCredit = demand;
        return;
      }
      credit = n;
    }
    giveCredit(stream, credit);
  }

  @Override
  public void cancel() {
    synchronized (this) {
      if (cancelled) {
        return;
      }
      cancelled = true;
      reply = null;
      cancelStream("the HTTP client went away");
    }
  }

  /** Tells the running call, stream or unary, that its caller went away. Under the monitor. */
  private void cancelStream(String why) {
    if (open != null) {
      open.cancelledByClient(why);
    }
    if (running != null) {
      running.cancel(why);
    }
  }

  private static void giveCredit(OpenStream stream, long credit) {
    if (stream.sender() != null) {
      stream.sender().credit((int) Math.min(Integer.MAX_VALUE, credit));
    }
  }

  // Signals, under the monitor.

  /** Delivers what is held and requested: the reply, then the end. */
  private void deliver() {
    if (terminated || cancelled) {
      return;
    }
    if (reply != null) {
      if (demand == 0) {
        return;
      }
      byte[] value = reply;
      reply = null;
      demand--;
      subscriber.onNext(value);
      if (failure == null) {
        terminate(null);
        return;
      }
    }
    if (failure != null) {
      terminate(failure);
    }
  }

  private void terminate(Throwable error) {
    terminated = true;
    reply = null;
    Future<?> timer = deadline;
    if (timer != null) {
      timer.cancel(false);
    }
    if (error == null) {
      subscriber.onComplete();
    } else {
      subscriber.onError(error);
    }
  }

  private synchronized void failed(RpcxException error) {
    if (failure == null && !terminated) {
      failure = error;
      deliver();
    }
  }

  /** {@code value} as a value message, or null if it is over the message limit. */
  private byte[] encode(ServerMethod method, Object value) throws CodecException {
    if (method.model().resultCodec() == null) {
      return new byte[0]; // a void method: no value
    }
    SizeHints hints = method.sizeHints();
    try {
      // Sized as the method's last value was, as the other protocols' replies are.
      ByteArrayProtoWriter out =
          new ByteArrayProtoWriter(new byte[Math.max(64, hints.replyValue())], maxMessageSize);
      Values.write(out, method.model().resultCodec(), value);
      byte[] message = out.toByteArray();
      hints.replyValue(message.length);
      return message;
    } catch (WriteLimitException e) {
      return null;
    } catch (IOException | RuntimeException e) {
      throw e instanceof CodecException
          ? (CodecException) e
          : new CodecException(String.valueOf(e.getMessage()), e);
    }
  }

  // Replies, for the call's ServerCall.

  @Override
  public void sendValue(int requestId, ServerMethod method, Object value) throws CodecException {
    byte[] message = encode(method, value);
    if (message == null) {
      sendError(
          requestId,
          StatusCode.RESOURCE_EXHAUSTED,
          "the reply is over the message limit of " + maxMessageSize + " bytes",
          null);
      return;
    }
    synchronized (this) {
      if (terminated || reply != null || failure != null) {
        return;
      }
      reply = message;
      deliver();
    }
  }

  @Override
  public void sendError(int requestId, StatusCode code, String message, ThrownException thrown) {
    boolean started;
    synchronized (this) {
      started = streamStarted;
    }
    failed(Failures.of(code, message, thrown == null ? "" : thrown.className(), started));
  }

  @Override
  public StreamOutput streamOutput(int streamId, ServerMethod method) {
    this.streamMethod = method;
    return this;
  }

  @Override
  public void sendStreamCredit(int streamId, int messages) {
    // No stream arguments over HTTP: refused before dispatch.
  }

  // StreamOutput, for a server stream's ResultStream: one element at a time, then the end.

  @Override
  public boolean message(Object value) throws CodecException {
    byte[] element = encode(streamMethod, value);
    if (element == null) {
      return false;
    }
    synchronized (this) {
      if (terminated || cancelled) {
        return true; // dropped: the subscriber is gone
      }
      streamStarted = true;
      demand--;
      subscriber.onNext(element);
    }
    return true;
  }

  @Override
  public void end(StatusCode code, String message, ThrownException thrown) {
    if (code == null) {
      synchronized (this) {
        if (!terminated) {
          terminate(null);
        }
      }
    } else {
      sendError(HandlerRequest.ID, code, message, thrown);
    }
  }

  // ServerConnection: this call's own; the rest is the HTTP connection's.

  @Override
  public Replies replies() {
    return this;
  }

  @Override
  public void streamOpened(OpenStream stream) {
    long credit;
    synchronized (this) {
      open = stream;
      credit = pendingCredit;
      pendingCredit = 0;
      if (cancelled) {
        stream.cancelledByClient("the HTTP client went away");
        return;
      }
    }
    if (credit > 0) {
      giveCredit(stream, credit);
    }
  }

  @Override
  public synchronized void streamEnded(OpenStream stream) {
    if (open == stream) {
      open = null;
    }
  }

  @Override
  public void callStarted(CancellableCall call) {
    synchronized (this) {
      if (!cancelled) {
        running = call;
        return;
      }
    }
    call.cancel("the HTTP client went away");
  }

  @Override
  public synchronized void callEnded(CancellableCall call) {
    if (running == call) {
      running = null;
    }
  }

  @Override
  public synchronized boolean isStreamOpen(int streamId) {
    return open != null;
  }

  @Override
  public PeerSchemas peerSchemas() {
    return null; // no SCHEMA: arguments are read with the server's own numbering
  }

  @Override
  public Future<?> schedule(Runnable task, long delayNanos) {
    return side.schedule(task, delayNanos);
  }

  @Override
  public String drainReason() {
    return side.drainReason();
  }

  @Override
  public boolean tryStartCall() {
    return side.tryStartCall();
  }

  @Override
  public void callAnswered() {
    side.callAnswered();
  }

  @Override
  public void callFinished() {
    side.callFinished();
  }

  @Override
  public int maxConcurrentCalls() {
    return side.maxConcurrentCalls();
  }

  @Override
  public String remoteAddress() {
    return side.remoteAddress();
  }

  @Override
  public void reset() {
    side.reset();
  }

  @Override
  public void closeForProtocolError(StatusCode code, String problem) {
    side.closeForProtocolError(code, problem);
  }

  /**
   * The milliseconds a caller waiting {@code timeout} waits, as a request carries them: 0 for no
   * deadline ({@code null}); at least 1, as a timeout of zero has passed at once.
   */
  public static int timeoutMillis(Duration timeout) {
    if (timeout == null) {
      return 0;
    }
    if (timeout.isNegative() || timeout.isZero()) {
      return 1;
    }
    long nanos = timeout.getSeconds() >= Integer.MAX_VALUE ? Long.MAX_VALUE : timeout.toNanos();
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(nanos)));
  }

  private static final Flow.Subscription NOTHING =
      new Flow.Subscription() {
        @Override
        public void request(long n) {}

        @Override
        public void cancel() {}
      };
}
