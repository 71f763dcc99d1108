package io.rpcx.client.internal.call;

import io.rpcx.core.CancelledException;
import io.rpcx.core.RpcxContext;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.protocol.Failures;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import io.rpcx.core.internal.protocol.SizeHints;
import io.rpcx.core.internal.stream.StreamReceiver;
import io.rpcx.core.internal.stream.StreamSender;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One attempt of a call from the moment it is made until its outcome is delivered: its {@link
 * Invocation} (arguments, deadline), the connection that carries it and the request id it gave it,
 * and how its outcome reaches the caller (a subclass per way of waiting: {@link BlockingCall},
 * {@link AsyncCall}, {@link ServerStreamCall}). The transport encodes its request from what it
 * exposes here ({@link #args}, {@link #sentMetadata}, {@link #sentTimeoutMillis}, {@link
 * #initialCredit}); the client's interceptors see it through its {@link AttemptInterceptors}.
 *
 * <p>An attempt finishes exactly once: the first of its reply ({@link #reply}), a failure ({@link
 * #fail}) and its caller giving up wins; the others are ignored (a late reply's payload is
 * released). Thread-safe.
 */
public abstract class PendingCall {
  private static final VarHandle FINISHED;

  static {
    try {
      FINISHED = MethodHandles.lookup().findVarHandle(PendingCall.class, "finished", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  protected final ClientMethod method;
  private final Invocation invocation;
  private final int attempt;
  private final CallRoute previousRoute;
  /** The interceptors around this attempt, or {@code null} when the client has none. */
  private final AttemptInterceptors interceptors;
  private volatile boolean finished;
  private int requestId;
  /** Published for a cancel from any thread (a future's, the calling context's). */
  private volatile CallOwner owner;
  private CallRoute route;
  /** When the balancer routed it, in {@link System#nanoTime()} terms. */
  private long routedAtNanos;
  /** The listener of the calling context's cancellation, while the attempt is in flight. */
  private volatile RpcxContext.Registration watch;
  /** The sending half of the stream argument, or {@code null}; attached before the call is sent. */
  private volatile StreamSender sender;

  /**
   * Attempt number {@code attempt} (from 1) of {@code invocation}; {@code previousRoute} is where
   * the attempt before it went, or {@code null}.
   */
  PendingCall(ClientMethod method, Invocation invocation, int attempt, CallRoute previousRoute) {
    this.method = method;
    this.invocation = invocation;
    this.attempt = attempt;
    this.previousRoute = previousRoute;
    this.interceptors =
        method.interceptors().length == 0
            ? null
            : new AttemptInterceptors(this, method.interceptors(), method.metadata());
  }

  /** The call this is an attempt of. */
  final Invocation invocation() {
    return invocation;
  }

  public final MethodModel model() {
    return method.model();
  }

  /**
   * Records the server a balancer sent this call to at {@code nowNanos}; it hears how the call
   * ends.
   */
  public final void route(CallRoute route, long nowNanos) {
    this.route = route;
    this.routedAtNanos = nowNanos;
  }

  /** When the call was routed ({@link #route}), in {@link System#nanoTime()} terms. */
  public final long routedAtNanos() {
    return routedAtNanos;
  }

  /** Where the previous attempt of this call went, to be avoided if possible; or {@code null}. */
  public final CallRoute previousRoute() {
    return previousRoute;
  }

  /** The server this attempt went to, or {@code null} if it was not routed. */
  final CallRoute routeTaken() {
    return route;
  }

  /** The attempt number, from 1. */
  public final int attempt() {
    return attempt;
  }

  /** When the call times out, in {@link System#nanoTime()} terms. */
  public final long deadlineNanos() {
    return invocation.deadlineNanos();
  }

  /** Nanoseconds left before the call times out (may be negative). */
  public final long remainingNanos() {
    return invocation.deadlineNanos() - System.nanoTime();
  }

  /** The sizes this call's method encoded last. */
  public final SizeHints sizeHints() {
    return method.sizeHints();
  }

  /** The hash of the argument annotated {@code @RoutingKey}; 0 if there is none. */
  public final long routingHash() {
    return method.routingHash(invocation.args());
  }

  /** Whether the method has a {@code @RoutingKey} argument. */
  public final boolean hasRoutingKey() {
    return method.model().routingKeyIndex() >= 0;
  }

  /** The server this call went to, or the channel's description before it was routed. */
  final String address() {
    CallRoute current = route;
    return current != null ? current.address() : method.channelAddress();
  }

  /** Whether the transport must time this call out (no caller thread waits for it). */
  public abstract boolean needsTimer();

  // What the transport encodes: the request's layout is the transport's.

  /** The call's arguments; a stream argument's place holds its publisher, sent apart. */
  public final Object[] args() {
    return invocation.args();
  }

  /** The metadata this attempt carries: the client's, and what interceptors added. */
  public final Map<String, String> sentMetadata() {
    return interceptors == null ? method.metadata() : interceptors.sentMetadata();
  }

  /**
   * The timeout the request tells the server: what is left of the call's own (a retry tells it
   * only what is left); for a stream, 0 (none) unless it has a timeout of its own or inherited one.
   */
  public final int sentTimeoutMillis() {
    if (!method.sendsDeadline() && !invocation.inherited()) {
      return 0;
    }
    long millis = TimeUnit.NANOSECONDS.toMillis(remainingNanos());
    return (int) Math.max(1, Math.min(method.timeoutMillis(), millis));
  }

  /**
   * The path gRPC calls the method at ({@code /package.Service/rpc}, docs/GRPC.md), as the
   * service's export names it.
   *
   * @throws IllegalStateException if the service cannot be exported, so not called over gRPC
   */
  public final String grpcPath() {
    return method.grpcPath();
  }

  /** The credit a server stream's request grants; 0 for other calls. */
  public int initialCredit() {
    return 0;
  }

  // The connection.

  /** Records the connection that sends this call and the id it gave it. */
  public final void bind(CallOwner owner, int requestId) {
    this.owner = owner;
    this.requestId = requestId;
  }

  public final int requestId() {
    return requestId;
  }

  /** The connection the call was sent on, or {@code null}; as seen by the thread that sent it. */
  final CallOwner owner() {
    return owner;
  }

  /** The schemas of the connection the call was sent on. */
  final PeerSchemas peerSchemas() {
    return owner == null ? null : owner.peerSchemas();
  }

  /** Whether the method streams (either way): a caller giving up tells the server. */
  public final boolean isStream() {
    return method.isStream();
  }

  /** The receiving half of a server stream; {@code null} for other calls. */
  public StreamReceiver receiver() {
    return null;
  }

  /** The sending half of the stream argument; {@code null} for calls without one. */
  public final StreamSender sender() {
    return sender;
  }

  /** Attaches the sending half of the stream argument; before the call is sent. */
  final void sender(StreamSender sender) {
    this.sender = sender;
  }

  /**
   * The end of a server stream arrived ({@code STREAM_END}, or gRPC's trailers; its connection
   * has forgotten the call): normal when {@code code} is {@code null}, else the error the server
   * ended it with, saying {@code message}, thrown as {@code exceptionClass} (empty unless a remote
   * failure), with the exception's fields ({@code exceptionValue}) and the server's stack trace,
   * each {@code null} when not sent (always over gRPC). Only calls with a {@linkplain #receiver()
   * receiver} get it.
   */
  public void streamEnded(
      StatusCode code,
      String message,
      String exceptionClass,
      byte[] exceptionValue,
      StackTraceElement[] stackTrace) {
    throw new IllegalStateException(model().displayName() + " is not a server stream");
  }

  /** Messages received on a server stream so far. */
  long streamMessagesReceived() {
    StreamReceiver current = receiver();
    return current == null ? 0 : current.received();
  }

  /** Messages of the stream argument sent so far. */
  long streamMessagesSent() {
    StreamSender current = sender;
    return current == null ? 0 : current.sent();
  }

  // The outcome.

  /** Whether the call has its outcome (or its caller gave up). */
  public final boolean isFinished() {
    return finished;
  }

  /** Claims the outcome; true for exactly one caller. */
  final boolean finish() {
    return FINISHED.compareAndSet(this, false, true);
  }

  /**
   * The attempt is about to be encoded and sent to {@code server}: made while serving a call, it is
   * cancelled with that call from now on (unless its method is {@code @OwnDeadline}); runs the
   * interceptors' {@code onStart}, on the sending thread.
   *
   * @throws RpcxException if the call being served was cancelled already ({@link
   *     CancelledException}), or an interceptor fails the attempt; it is not sent, not retried and
   *     does not count against the server
   */
  public final void start(String server) {
    RpcxContext caller = invocation.caller();
    if (caller.isServingCall() && method.model().inheritsDeadline()) {
      if (caller.isCancelled()) {
        throw new CancelledException(
            model().displayName() + " was not sent: " + servedCallCancelled(caller), null);
      }
      watch = caller.onCancel(() -> cancel(servedCallCancelled(caller)));
    }
    if (interceptors != null) {
      interceptors.start(server);
    }
  }

  private static String servedCallCancelled(RpcxContext caller) {
    return "the call being served, " + caller.service() + "/" + caller.method()
        + ", was cancelled (" + caller.cancellationReason().orElse("") + ")";
  }

  /**
   * Cancels the attempt, saying {@code reason}: its caller gets a {@link CancelledException}, and
   * the server, if it has the call, is told, and stops serving it. Ignored if already finished.
   * Any thread.
   */
  void cancel(String reason) {
    if (finish()) {
      CancelledException cancelled =
          new CancelledException(model().displayName() + " was cancelled: " + reason, null);
      ended(CallOutcome.OTHER, cancelled, 0);
      onFailure(cancelled, cancelled);
      abandon(reason);
    }
  }

  /** Whether an interceptor failed this attempt before it was sent. */
  final boolean refusedByInterceptor() {
    return interceptors != null && interceptors.refused();
  }

  /** The request of this attempt was encoded: {@code bytes} of payload. */
  public final void encoded(int bytes) {
    if (interceptors != null) {
      interceptors.encoded(bytes);
    }
  }

  /**
   * Delivers the reply; this call then owns {@code payload}. Ignored if already finished. A reply
   * that arrives after the deadline times the call out instead: a caller never gets a result
   * later than it asked to wait, however late its timeout fired. An error reply is turned into
   * its exception here, by the one mapping ({@link Failures}): the caller and the interceptors
   * get the same type, safe to retry or not alike.
   */
  public final void reply(ReplyEnvelope envelope, Payload payload) {
    if (remainingNanos() < 0) {
      payload.release();
      timeOut();
      return;
    }
    if (!finish()) {
      payload.release();
      return;
    }
    int bytes = payload.length();
    if (!envelope.isError()) {
      ended(CallOutcome.REPLIED, null, bytes);
      onReply(envelope, payload);
      return;
    }
    payload.release();
    StatusCode code = envelope.errorCode();
    String message = envelope.errorMessage();
    RpcxException failure =
        method.failure(code, message, envelope.exceptionClass(), address(), false);
    // The interceptors get the server's own words, through the same mapping as the caller.
    ended(
        CallOutcome.REPLIED,
        interceptors == null ? failure : Failures.of(code, message, envelope.exceptionClass(), false),
        bytes);
    onFailure(
        failure,
        method.thrown(
            failure, message, envelope.exceptionValue(), envelope.stackTrace(), peerSchemas()));
  }

  /** Fails the call. Ignored if already finished. */
  public final void fail(RpcxException failure) {
    if (finish()) {
      ended(
          failure instanceof UnavailableException && !refusedByInterceptor()
              ? CallOutcome.UNAVAILABLE
              : CallOutcome.OTHER,
          failure,
          0);
      onFailure(failure, failure);
    }
  }

  /**
   * Fails the call, never sent because its connection was draining: the server told the client
   * to go away (a stopping server, a connection at its maximum age), which says nothing against
   * its health, so the failure is not counted against it. Ignored if already finished.
   */
  public final void failUnsent(UnavailableException failure) {
    if (finish()) {
      ended(CallOutcome.OTHER, failure, 0);
      onFailure(failure, failure);
    }
  }

  /**
   * Times the call out; its connection, which calls this, has forgotten it already. Ignored if
   * already finished.
   */
  public final void timeOut() {
    if (finish()) {
      ended(CallOutcome.TIMED_OUT, method.timeoutException(this), 0);
      onTimeout();
    }
  }

  /**
   * Fails the call with {@code error}, the failure of its stream argument's publisher (or a
   * publisher breaking its contract): the caller gets that error itself, the interceptors a
   * {@link CancelledException} caused by it. Ignored if already finished.
   */
  final void failFromArgument(Throwable error) {
    if (finish()) {
      ended(
          CallOutcome.OTHER,
          new CancelledException(
              "the stream argument of " + model().displayName() + " failed: " + error, error),
          0);
      onArgumentFailure(error);
    }
  }

  /**
   * Tells the route, the stream argument and the interceptors how the attempt ended; once, by
   * whoever finished it. {@code failure} is what its caller gets, as an {@link RpcxException}, or
   * null for a value; {@code responseBytes} the reply's size, if one came.
   */
  final void ended(CallOutcome outcome, RpcxException failure, int responseBytes) {
    RpcxContext.Registration watching = watch;
    if (watching != null) {
      watching.close();
    }
    StreamSender uploading = sender;
    if (uploading != null) {
      uploading.close();
    }
    CallRoute current = route;
    if (current != null) {
      current.ended(this, outcome);
    }
    if (interceptors != null) {
      StreamReceiver receiving = receiver();
      interceptors.received(receiving == null ? responseBytes : receiving.receivedBytes());
      interceptors.ended(failure);
    }
  }

  /** A reply with a value arrived; the call owns {@code payload}. */
  abstract void onReply(ReplyEnvelope envelope, Payload payload);

  /**
   * The call failed with {@code failure}; its caller gets {@code thrown} (the same, or the checked
   * exception the method declares that the server threw).
   */
  abstract void onFailure(RpcxException failure, Throwable thrown);

  /** The call timed out (and was finished): tell its caller. */
  abstract void onTimeout();

  /** The call failed because its stream argument did (see {@link #failFromArgument}). */
  abstract void onArgumentFailure(Throwable error);

  /**
   * Tells the connection the caller has given up on the call, saying {@code reason}: it forgets
   * the call and tells the server ({@code STREAM_CANCEL}).
   */
  final void abandon(String reason) {
    CallOwner current = owner;
    if (current != null) {
      current.abandon(this, reason);
    }
  }
}
