package io.rpcx.client.internal.call;

import io.rpcx.client.CallResult;
import io.rpcx.client.ClientCall;
import io.rpcx.client.ClientInterceptor;
import io.rpcx.core.CancelledException;
import io.rpcx.core.InternalErrorException;
import io.rpcx.core.RpcxContext;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.codec.ProtoWriter;
import io.rpcx.core.internal.config.Checks;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.protocol.Failures;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import io.rpcx.core.internal.protocol.RequestWriter;
import io.rpcx.core.internal.protocol.SizeHints;
import io.rpcx.core.internal.protocol.StreamFrames;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attempt of a call from the moment it is made until its outcome is delivered: its {@link
 * Invocation} (arguments, deadline), the request id its connection gave it, its metadata, and how
 * its outcome reaches the caller. The client's interceptors see it as a {@link ClientCall}.
 *
 * <p>An attempt finishes exactly once: the first of its reply ({@link #reply}), a failure ({@link
 * #fail}) and its caller giving up wins; the others are ignored (a late reply's payload is
 * released). Thread-safe.
 */
public abstract class PendingCall implements ClientCall {
  private static final Logger logger = LoggerFactory.getLogger(PendingCall.class);
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
  private final ClientInterceptor[] interceptors;
  private volatile boolean finished;
  private int requestId;
  private CallOwner owner;
  private CallRoute route;
  /** The client's metadata, copied on the first entry an interceptor adds. */
  private Map<String, String> metadata;
  // Interceptors' view of the attempt; written by the sending thread before the attempt is queued,
  // read by whoever ends it (the write queue's hand-off orders the two).
  private int interceptorsStarted = -1;
  /** An interceptor's onStart failed the attempt: it says nothing about the server. */
  private boolean refusedByInterceptor;
  private long startNanos;
  private String server;
  private int requestBytes;
  private Object[] attachments;
  /** Written by the thread that ends the attempt with a reply, before it tells the interceptors. */
  private int responseBytes;
  /** The upload of the stream argument, or {@code null}; attached before the call is sent. */
  private volatile Upload upload;

  /**
   * Attempt number {@code attempt} (from 1) of {@code invocation}; {@code previousRoute} is where
   * the attempt before it went, or {@code null}.
   */
  PendingCall(
      ClientMethod method, Invocation invocation, int attempt, CallRoute previousRoute) {
    this.method = method;
    this.invocation = invocation;
    this.metadata = method.metadata();
    this.attempt = attempt;
    this.previousRoute = previousRoute;
    this.interceptors = method.interceptors();
  }

  /** The call this is an attempt of. */
  final Invocation invocation() {
    return invocation;
  }

  /** Records the server a balancer sent this call to; it hears how the call ends. */
  public final void route(CallRoute route) {
    this.route = route;
  }

  /** Where the previous attempt of this call went, to be avoided if possible; or {@code null}. */
  public final CallRoute previousRoute() {
    return previousRoute;
  }

  /** The attempt number, from 1. */
  @Override
  public final int attempt() {
    return attempt;
  }

  /** When the call times out, in {@link System#nanoTime()} terms. */
  public final long deadlineNanos() {
    return invocation.deadlineNanos();
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

  /** The server this attempt went to, or {@code null} if it was not routed. */
  final CallRoute routeTaken() {
    return route;
  }

  /** The server this call went to, or the channel's description before it was routed. */
  final String address() {
    CallRoute current = route;
    return current != null ? current.address() : method.channelAddress();
  }

  final Object[] args() {
    return invocation.args();
  }

  /** Records the connection that sends this call and the id it gave it. */
  public final void bind(CallOwner owner, int requestId) {
    this.owner = owner;
    this.requestId = requestId;
  }

  public final int requestId() {
    return requestId;
  }

  public final MethodModel model() {
    return method.model();
  }

  /** Nanoseconds left before the call times out (may be negative). */
  public final long remainingNanos() {
    return invocation.deadlineNanos() - System.nanoTime();
  }

  /** The time left, as sent to the server: a retry tells it only what is left of the timeout. */
  private int remainingMillis() {
    long millis = TimeUnit.NANOSECONDS.toMillis(remainingNanos());
    return (int) Math.max(1, Math.min(method.timeoutMillis(), millis));
  }

  /** Whether the call has its outcome (or its caller gave up). */
  public final boolean isFinished() {
    return finished;
  }

  /** Writes the request payload. */
  public final void writeTo(ProtoWriter out) throws IOException {
    MethodModel model = method.model();
    boolean stream = model.isStream();
    RequestWriter.write(
        out,
        requestId,
        model.nameFields(),
        model.parameterTypeFields(),
        model.parameterCodecs(),
        invocation.args(),
        stream ? streamTimeoutMillis() : remainingMillis(),
        metadata,
        method.sizeHints().arguments());
    if (model.isServerStream()) {
      RequestWriter.writeInitialCredit(out, initialCredit());
    }
  }

  /** A stream's deadline, as sent: 0 (none) unless it has its own timeout or inherited one. */
  private int streamTimeoutMillis() {
    return invocation.inherited() || method.timeoutMillis() > 0 ? remainingMillis() : 0;
  }

  /** The credit a server stream's request grants; 0 for other calls. */
  int initialCredit() {
    return 0;
  }

  /**
   * A {@code STREAM_MESSAGE} for this call arrived, on the event loop; the call then owns {@code
   * payload}. Returns false, releasing it, if this is not a server stream: the server broke the
   * protocol.
   */
  public boolean streamMessage(ReplyEnvelope envelope, Payload payload) {
    payload.release();
    return false;
  }

  /**
   * The {@code STREAM_MESSAGE}s of one read (one or more {@link #streamMessage}) are all in, on the
   * event loop: the call hands them on now, once per read rather than once per message.
   */
  public void streamMessagesArrived() {}

  /**
   * The {@code STREAM_END} of this call arrived (its connection has forgotten it). Returns false if
   * this is not a server stream: the server broke the protocol.
   */
  public boolean streamEnd(StreamFrames end) {
    return false;
  }

  /**
   * A {@code STREAM_CREDIT} for this call arrived, on the event loop: the server may take {@code
   * messages} more of its stream argument. Returns false if the call has no stream argument: the
   * server broke the protocol.
   */
  public final boolean streamCredit(int messages) {
    Upload current = upload;
    if (current == null) {
      return false;
    }
    current.credit(messages);
    return true;
  }

  /** Attaches the upload of this call's stream argument; before the call is sent. */
  final void upload(Upload upload) {
    this.upload = upload;
  }

  @Override
  public long streamMessagesSent() {
    Upload current = upload;
    return current == null ? 0 : current.sent();
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
          null,
          new CancelledException(
              "the stream argument of " + model().displayName() + " failed: " + error, error));
      onArgumentFailure(error);
    }
  }

  /** The call failed because its stream argument did (see {@link #failFromArgument}). */
  void onArgumentFailure(Throwable error) {
    throw new IllegalStateException(model().displayName() + " has no stream argument", error);
  }

  /** Adds the bytes of a stream's message to what the interceptors see as the response's size. */
  final void countResponseBytes(int bytes) {
    responseBytes += bytes;
  }

  /** Whether the transport must time this call out (no caller thread waits for it). */
  public abstract boolean needsTimer();

  /**
   * Delivers the reply; this call then owns {@code payload}. Ignored if already finished. A reply
   * that arrives after the deadline times the call out instead: a caller never gets a result
   * later than it asked to wait, however late its timeout fired.
   */
  public final void reply(ReplyEnvelope envelope, Payload payload) {
    if (remainingNanos() < 0) {
      payload.release();
      timeOut();
      return;
    }
    if (finish()) {
      responseBytes = payload.length();
      ended(CallOutcome.REPLIED, envelope, null);
      onReply(envelope, payload);
    } else {
      payload.release();
    }
  }

  /** Fails the call. Ignored if already finished. */
  public final void fail(RpcxException failure) {
    if (finish()) {
      ended(
          failure instanceof UnavailableException && !refusedByInterceptor
              ? CallOutcome.UNAVAILABLE
              : CallOutcome.OTHER,
          null,
          failure);
      onFailure(failure);
    }
  }

  /**
   * Fails the call, never sent because its connection was draining: the server told the client
   * to go away (a stopping server, a connection at its maximum age), which says nothing against
   * its health, so the failure is not counted against it. Ignored if already finished.
   */
  public final void failUnsent(UnavailableException failure) {
    if (finish()) {
      ended(CallOutcome.OTHER, null, failure);
      onFailure(failure);
    }
  }

  /**
   * Times the call out; its connection, which calls this, has forgotten it already. Ignored if
   * already finished.
   */
  public final void timeOut() {
    if (finish()) {
      ended(CallOutcome.TIMED_OUT, null, null);
      onTimeout();
    }
  }

  /**
   * Tells the route and the interceptors how the attempt ended; once, by whoever finished it.
   * {@code envelope} is the reply's, if one came; {@code failure} the failure, if known (a timeout
   * passes the exception its caller gets, or none if that is made later).
   */
  final void ended(CallOutcome outcome, ReplyEnvelope envelope, RpcxException failure) {
    Upload uploading = upload;
    if (uploading != null) {
      uploading.callEnded();
    }
    CallRoute current = route;
    if (current != null) {
      current.ended(this, outcome);
    }
    if (interceptors.length != 0) {
      endInterceptors(outcome, envelope, failure);
    }
  }

  /**
   * The attempt is about to be encoded and sent to {@code server}: runs the interceptors' {@link
   * ClientInterceptor#onStart}, on the sending thread. An attempt an interceptor fails is not
   * retried and does not count against the server.
   *
   * @throws RpcxException if an interceptor fails the attempt
   */
  public final void start(String server) {
    if (interceptors.length == 0) {
      return;
    }
    this.server = server;
    this.startNanos = System.nanoTime();
    interceptorsStarted = 0;
    for (ClientInterceptor interceptor : interceptors) {
      try {
        interceptor.onStart(this);
      } catch (RpcxException e) {
        refusedByInterceptor = true;
        throw e;
      } catch (RuntimeException e) {
        refusedByInterceptor = true;
        throw new InternalErrorException(
            "client interceptor "
                + interceptor.getClass().getName()
                + " failed before "
                + model().displayName()
                + " was sent: "
                + e,
            e);
      } finally {
        interceptorsStarted++;
      }
    }
  }

  /**
   * Starts the interceptors of an attempt that ended before it could be sent anywhere, so that
   * every end has its start: each is started whatever the others do, and what they add to the
   * metadata is dropped with the attempt.
   */
  private void startLate() {
    this.startNanos = System.nanoTime();
    interceptorsStarted = 0;
    for (ClientInterceptor interceptor : interceptors) {
      try {
        interceptor.onStart(this);
      } catch (RuntimeException e) {
        logger.warn(
            "Client interceptor {} failed to start {}, which was not sent",
            interceptor.getClass().getName(),
            model().displayName(),
            e);
      } finally {
        interceptorsStarted++;
      }
    }
  }

  /** Whether an interceptor failed this attempt before it was sent. */
  final boolean refusedByInterceptor() {
    return refusedByInterceptor;
  }

  /** The request of this attempt was encoded: {@code bytes} of payload. */
  public final void encoded(int bytes) {
    requestBytes = bytes;
  }

  private void endInterceptors(CallOutcome outcome, ReplyEnvelope envelope, RpcxException failure) {
    if (interceptorsStarted < 0) {
      startLate();
    }
    StatusCode status;
    if (envelope != null) {
      status = envelope.isError() ? envelope.errorCode() : StatusCode.OK;
      if (envelope.isError()) {
        failure =
            Failures.of(status, envelope.errorMessage(), envelope.exceptionClass());
      }
    } else if (outcome == CallOutcome.TIMED_OUT) {
      status = StatusCode.TIMEOUT;
      if (failure == null) {
        failure = method.timeoutException(this);
      }
    } else if (failure == null) {
      status = StatusCode.OK; // a stream that ended normally
    } else {
      status = failure.status();
    }
    CallResult result =
        new CallResult(
            status, failure, System.nanoTime() - startNanos, requestBytes, responseBytes);
    for (int i = Math.min(interceptorsStarted, interceptors.length) - 1; i >= 0; i--) {
      try {
        interceptors[i].onEnd(this, result);
      } catch (RuntimeException e) {
        logger.warn(
            "Client interceptor {} failed at the end of {}",
            interceptors[i].getClass().getName(),
            model().displayName(),
            e);
      }
    }
  }

  /** Claims the outcome; true for exactly one caller. */
  final boolean finish() {
    return FINISHED.compareAndSet(this, false, true);
  }

  abstract void onReply(ReplyEnvelope envelope, Payload payload);

  abstract void onFailure(RpcxException failure);

  /** The call timed out (and was finished): tell its caller. */
  abstract void onTimeout();

  /** The schemas of the connection the call was sent on. */
  final PeerSchemas peerSchemas() {
    return owner == null ? null : owner.peerSchemas();
  }

  /** The connection the call was sent on, or {@code null}; as seen by the thread that sent it. */
  final CallOwner owner() {
    return owner;
  }

  /**
   * Tells the connection the caller has given up on the call; for a stream, the server is told
   * too ({@code STREAM_CANCEL}).
   */
  final void abandon() {
    if (owner != null) {
      if (model().isStream()) {
        owner.cancelStream(this, "");
      } else {
        owner.abandon(this);
      }
    }
  }

  // ClientCall, for interceptors.

  @Override
  public final String service() {
    return model().service();
  }

  @Override
  public final String method() {
    return model().name();
  }

  @Override
  public final Method javaMethod() {
    return model().javaMethod();
  }

  @Override
  public final String server() {
    return server;
  }

  @Override
  public final Duration timeRemaining() {
    return Duration.ofNanos(remainingNanos());
  }

  @Override
  public final List<Object> arguments() {
    Object[] args = invocation.args();
    return args == null ? List.of() : Collections.unmodifiableList(Arrays.asList(args));
  }

  @Override
  public final Map<String, String> metadata() {
    return Collections.unmodifiableMap(metadata);
  }

  @Override
  public final void putMetadata(String key, String value) {
    // Not "finished": an attempt may end (timed out, cancelled, never sent) while an interceptor
    // is starting it; what it adds then is dropped with the attempt.
    if (interceptorsStarted < 0 || interceptorsStarted >= interceptors.length) {
      throw new IllegalStateException(
          "metadata can be added only in ClientInterceptor.onStart, before the attempt is sent");
    }
    if (metadata == method.metadata()) {
      metadata = new HashMap<>(metadata);
    }
    metadata.put(Checks.metadataKey(key), Objects.requireNonNull(value, "value"));
  }

  @Override
  public final RpcxContext context() {
    return invocation.caller();
  }

  @Override
  public final <T> void attach(RpcxContext.Key<T> key, T value) {
    Object[] current = attachments;
    if (current == null) {
      attachments = new Object[] {key, value};
      return;
    }
    for (int i = 0; i < current.length; i += 2) {
      if (current[i] == key) {
        current[i + 1] = value;
        return;
      }
    }
    Object[] grown = Arrays.copyOf(current, current.length + 2);
    grown[current.length] = key;
    grown[current.length + 1] = value;
    attachments = grown;
  }

  @Override
  @SuppressWarnings("unchecked")
  public final <T> T attachment(RpcxContext.Key<T> key) {
    Object[] current = attachments;
    if (current != null) {
      for (int i = 0; i < current.length; i += 2) {
        if (current[i] == key) {
          return (T) current[i + 1];
        }
      }
    }
    return null;
  }
}
