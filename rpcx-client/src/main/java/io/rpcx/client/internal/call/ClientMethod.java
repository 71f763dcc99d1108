package io.rpcx.client.internal.call;

import io.rpcx.client.ClientInterceptor;
import io.rpcx.core.BlockingOperationException;
import io.rpcx.core.CallTimeoutException;
import io.rpcx.core.InternalErrorException;
import io.rpcx.core.MethodDescriptor;
import io.rpcx.core.RemoteFailureException;
import io.rpcx.core.RpcxContext;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.codec.Values;
import io.rpcx.core.internal.grpc.GrpcPaths;
import io.rpcx.core.internal.model.DeclaredExceptions;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.protocol.Failures;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import io.rpcx.core.internal.protocol.SizeHints;
import io.rpcx.core.internal.stream.StreamReceiver;
import io.rpcx.core.internal.transport.NetworkThreads;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A remote method as the client calls it: the method's model bound to its endpoint, its timeout,
 * the way its calls are made (one {@link Invoker} per {@linkplain MethodDescriptor.Shape shape} and
 * way of waiting, chosen here once), and how replies become results or exceptions. Built once per
 * interface method when a proxy is created; immutable and thread-safe.
 */
public final class ClientMethod {
  private static final Logger logger = LoggerFactory.getLogger(ClientMethod.class);

  /** About 73 years: the "deadline" of a stream that has none, in nanoTime arithmetic. */
  static final long NO_DEADLINE_NANOS = Long.MAX_VALUE / 4;

  /** How the calls of one method are made and waited for. */
  @FunctionalInterface
  private interface Invoker {
    Object invoke(Invocation invocation) throws Throwable;
  }

  private final MethodModel model;
  private final CallChannel channel;
  private final long timeoutNanos;
  private final int timeoutMillis;
  private final Completions completions;
  private final int maxNestingDepth;
  private final Map<String, String> metadata;
  private final RetryPolicy retries;
  private final ClientInterceptor[] interceptors;
  private final SizeHints sizeHints;
  private final int maxStreamWindow;
  private final long maxStreamBufferedBytes;
  /** Where gRPC calls the method, should a gRPC server be called; worked out on first use. */
  private final GrpcPaths grpcPaths;
  private final Invoker invoker;
  private final boolean stream;
  /** Whether requests tell the server a deadline: a stream only with a timeout of its own. */
  private final boolean sendsDeadline;
  /** Whether a timeout is thrown on the caller's thread, which then gets a stack trace. */
  private final boolean blockingCaller;

  /**
   * A method whose streams from the server (server and bidirectional streams) are received with a
   * window of {@code maxStreamWindow} messages and {@code maxStreamBufferedBytes} held; {@code
   * grpcPaths} are its service's, for gRPC servers.
   */
  public ClientMethod(
      MethodModel model,
      CallChannel channel,
      long timeoutMillis,
      Completions completions,
      int maxNestingDepth,
      Map<String, String> metadata,
      RetryPolicy retries,
      List<ClientInterceptor> interceptors,
      int maxStreamWindow,
      long maxStreamBufferedBytes,
      GrpcPaths grpcPaths) {
    MethodDescriptor descriptor = model.descriptor();
    this.grpcPaths = grpcPaths;
    this.maxStreamWindow = maxStreamWindow;
    this.maxStreamBufferedBytes = maxStreamBufferedBytes;
    this.model = model;
    this.retries = retries;
    this.interceptors = interceptors.toArray(new ClientInterceptor[0]);
    this.metadata = Map.copyOf(metadata);
    this.channel = channel;
    this.timeoutMillis = (int) Math.min(Integer.MAX_VALUE, timeoutMillis);
    this.stream = descriptor.shape().isStream();
    this.sendsDeadline = !stream || timeoutMillis > 0;
    this.blockingCaller = !descriptor.isAsync();
    // A stream without a timeout of its own has no deadline: one too far away to matter.
    this.timeoutNanos =
        timeoutMillis == 0 && stream ? NO_DEADLINE_NANOS : TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    this.completions = completions;
    this.maxNestingDepth = maxNestingDepth;
    this.sizeHints = new SizeHints(model.parameterCount());
    this.invoker = invoker(descriptor);
  }

  /** The way calls of a method of {@code descriptor}'s shape are made, decided once. */
  private Invoker invoker(MethodDescriptor descriptor) {
    boolean async = descriptor.isAsync();
    switch (descriptor.shape()) {
      case UNARY:
        return async ? this::unaryAsync : this::unaryBlocking;
      case CLIENT_STREAM:
        return async ? this::clientStreamAsync : this::clientStreamBlocking;
      case SERVER_STREAM:
      case BIDI_STREAM:
      default:
        boolean upload = descriptor.shape().clientStreams();
        return invocation -> {
          RemotePublisher publisher = new RemotePublisher(this, invocation, upload);
          return async ? publisher : BlockingStream.of(publisher, model);
        };
    }
  }

  public MethodModel model() {
    return model;
  }

  /** The path gRPC calls this method at; see {@link PendingCall#grpcPath()}. */
  String grpcPath() {
    return grpcPaths.path(model);
  }

  /** The sizes of this method's last request. */
  SizeHints sizeHints() {
    return sizeHints;
  }

  /** The channel's description, for messages about calls not yet routed to a server. */
  String channelAddress() {
    return channel.address();
  }

  /** The hash of the {@code @RoutingKey} argument, or 0. */
  long routingHash(Object[] args) {
    int index = model.routingKeyIndex();
    return index < 0 ? 0 : RoutingKeys.hash(args[index]);
  }

  /** The client's interceptors, in order; shared, never modified. */
  ClientInterceptor[] interceptors() {
    return interceptors;
  }

  long timeoutNanos() {
    return timeoutNanos;
  }

  /** Metadata sent with every call (credentials, for example). */
  Map<String, String> metadata() {
    return metadata;
  }

  int timeoutMillis() {
    return timeoutMillis;
  }

  /** Whether the method streams either way: never retried, a caller giving up tells the server. */
  boolean isStream() {
    return stream;
  }

  /** Whether requests tell the server their deadline even when none was inherited. */
  boolean sendsDeadline() {
    return sendsDeadline;
  }

  /** Messages received on a stream and not yet delivered (plus credit unused), at most. */
  int maxStreamWindow() {
    return maxStreamWindow;
  }

  /** Bytes of received stream messages held above which no credit is granted. */
  long maxStreamBufferedBytes() {
    return maxStreamBufferedBytes;
  }

  /** The client's callback executor, where stream subscribers are signalled. */
  Completions completions() {
    return completions;
  }

  /** The channel calls go to. */
  CallChannel channel() {
    return channel;
  }

  /**
   * Makes the call: blocks until the result for a blocking method, returns a {@code
   * CompletableFuture} or a {@code Flow.Publisher} at once for an asynchronous one.
   */
  public Object invoke(Object[] args) throws Throwable {
    if (blockingCaller && NetworkThreads.isCurrent()) {
      throw blockingOnNetworkThread();
    }
    return invoker.invoke(Invocation.of(this, args, System.nanoTime()));
  }

  /**
   * Why a blocking call cannot be made on this thread, one of RPCX's network threads: it would
   * wait there for a reply that network threads deliver, and stall every call of its connections.
   */
  private BlockingOperationException blockingOnNetworkThread() {
    RpcxContext served = RpcxContext.current();
    return new BlockingOperationException(
        "a blocking call to " + model.displayName() + " was made on network thread "
            + Thread.currentThread().getName()
            + (served.isServingCall()
                ? " by " + served.service() + "/" + served.method()
                    + ", which runs there because it never blocks (it is asynchronous or"
                    + " @NonBlocking) or its server runs every call there (directExecutor())"
                : "")
            + ": waiting there would stall every call of that thread's connections. Make the call"
            + " through a client method returning CompletableFuture, or annotate the calling"
            + " method @Blocking so that it runs on a worker");
  }

  private Object unaryAsync(Invocation invocation) {
    retries.called(System.nanoTime());
    CallFuture future = new CallFuture(model.displayName());
    send(new AsyncCall(this, invocation, 1, null, future, completions));
    return future;
  }

  private Object unaryBlocking(Invocation invocation) throws Throwable {
    retries.called(System.nanoTime());
    BlockingCall call = new BlockingCall(this, invocation, 1, null);
    List<RpcxException> earlier = null;
    while (true) {
      send(call);
      try {
        return call.await();
      } catch (RpcxException failure) {
        if (!retries.mayRetry(call, failure, channel)) {
          if (earlier != null) {
            earlier.forEach(failure::addSuppressed);
          }
          throw failure;
        }
        if (earlier == null) {
          earlier = new ArrayList<>(2);
        }
        earlier.add(failure);
        call = new BlockingCall(this, invocation, call.attempt() + 1, call.routeTaken());
      }
    }
  }

  /**
   * A client stream: one attempt (never retried: elements may have been taken), whose stream
   * argument is uploaded once the request is sent.
   */
  private Object clientStreamAsync(Invocation invocation) {
    CallFuture future = new CallFuture(model.displayName());
    sendWithUpload(new AsyncCall(this, invocation, 1, null, future, completions));
    return future;
  }

  private Object clientStreamBlocking(Invocation invocation) throws Throwable {
    BlockingCall call = new BlockingCall(this, invocation, 1, null);
    sendWithUpload(call);
    return call.await();
  }

  /** Sends {@code call}, then subscribes to its stream argument (unless it was not sent). */
  private void sendWithUpload(PendingCall call) {
    if (call.args()[model.streamParameterIndex()] == null) {
      throw new NullPointerException(
          "the stream argument of " + model.displayName() + " is null: pass a Flow.Publisher");
    }
    Upload upload = Upload.attach(call);
    if (call.remainingNanos() <= 0) {
      call.timeOut();
      upload.start(null);
      return;
    }
    try {
      channel.send(call);
    } catch (RpcxException e) {
      call.fail(e);
    }
    upload.start(call.owner());
  }

  /** Sends {@code call}, unless the deadline it inherited has passed already: then it times out. */
  private void send(PendingCall call) {
    if (call.remainingNanos() <= 0) {
      call.timeOut();
    } else {
      channel.send(call);
    }
  }

  /**
   * Sends another attempt of an asynchronous call that failed, if the retry policy allows; the new
   * attempt completes the same future.
   */
  boolean retry(AsyncCall failed, RpcxException failure) {
    if (stream || !retries.mayRetry(failed, failure, channel)) {
      return false;
    }
    channel.send(
        new AsyncCall(
            this,
            failed.invocation(),
            failed.attempt() + 1,
            failed.routeTaken(),
            failed.future(),
            completions));
    return true;
  }

  /** Decodes a reply's value into the method's result; releases it. */
  Object decode(ReplyEnvelope envelope, Payload payload, PeerSchemas schemas, String address) {
    try {
      ValueCodec<Object> codec = model.resultCodec();
      if (codec == null) {
        return null;
      }
      DecodeContext context = new DecodeContext(maxNestingDepth, schemas);
      return result(
          envelope.readValue(payload, codec.isBulkBytes(), in -> Values.read(codec, in, context)),
          address);
    } catch (IOException | RuntimeException e) {
      throw decodeFailure(e, address);
    } finally {
      payload.release();
    }
  }

  /** Decodes one message of a server stream, as its wire protocol holds it; releases it. */
  Object decode(StreamReceiver.Message message, PeerSchemas schemas, String address) {
    try {
      return result(
          message.decode(model.resultCodec(), new DecodeContext(maxNestingDepth, schemas)),
          address);
    } catch (IOException | RuntimeException e) {
      throw decodeFailure(e, address);
    }
  }

  /** {@code value} as the method returns it: absent as its type's absent value. */
  private Object result(Object value, String address) {
    if (value != null) {
      return value;
    }
    if (model.isPrimitiveResult()) {
      throw new InternalErrorException(
          model.displayName() + " on " + address + " returned null for a primitive result", null);
    }
    return model.resultCodec().absentValue();
  }

  private RpcxException decodeFailure(Exception e, String address) {
    if (e instanceof RpcxException) {
      return (RpcxException) e;
    }
    return new InternalErrorException(
        "cannot decode the result of " + model.displayName() + " from " + address + ": "
            + e.getMessage(),
        e);
  }

  /**
   * The exception an error from the server at {@code address} stands for, as the caller's retry
   * policy and the interceptors see it: the {@link RpcxException} of its status ({@link
   * Failures#of}), saying which method failed where. {@code started} says whether a stream had
   * started.
   */
  RpcxException failure(
      StatusCode code, String message, String exceptionClass, String address, boolean started) {
    if (code == StatusCode.REMOTE_FAILURE && !exceptionClass.isEmpty()) {
      return new RemoteFailureException(
          model.displayName() + " on " + address + " threw " + exceptionClass
              + (message.isEmpty() ? "" : ": " + message),
          exceptionClass);
    }
    return Failures.of(
        code, model.displayName() + " failed on " + address + ": " + message, "", started);
  }

  /**
   * What the caller gets for {@code failure}: the checked exception the method declares, when the
   * server threw one, rebuilt from its fields ({@code exceptionValue}, decoded with the server's
   * {@code schemas}) and the server's {@code message}; else {@code failure} itself. Only a class
   * of the method's {@code throws} clause is ever rebuilt, whatever name the failure carries. An
   * exception that cannot be rebuilt (a field whose type differs between the two sides, its
   * constructor refusing the values) arrives as the {@link RemoteFailureException}, saying why.
   * A server asked to send its stack traces gave {@code stackTrace} (else null): the exception's
   * trace is then the server's frames, then those it was made with here, as Java RMI shows a
   * remote exception.
   */
  Throwable thrown(
      RpcxException failure,
      String message,
      byte[] exceptionValue,
      StackTraceElement[] stackTrace,
      PeerSchemas schemas) {
    if (!(failure instanceof RemoteFailureException remote)) {
      return failure;
    }
    Throwable thrown = rebuilt(remote, message, exceptionValue, schemas);
    if (stackTrace != null) {
      StackTraceElement[] local = thrown.getStackTrace();
      StackTraceElement[] both = Arrays.copyOf(stackTrace, stackTrace.length + local.length);
      System.arraycopy(local, 0, both, stackTrace.length, local.length);
      thrown.setStackTrace(both);
    }
    return thrown;
  }

  private Throwable rebuilt(
      RemoteFailureException remote, String message, byte[] exceptionValue, PeerSchemas schemas) {
    DeclaredExceptions.Thrown declared = model.thrownExceptions().named(remote.remoteClassName());
    if (declared == null) {
      return remote;
    }
    try {
      Throwable rebuilt = declared.rebuild(exceptionValue, message, schemas, maxNestingDepth);
      return rebuilt != null ? rebuilt : remote;
    } catch (IOException | RuntimeException e) {
      logger.debug("Cannot rebuild {} thrown by {}", declared, model.displayName(), e);
      return new RemoteFailureException(
          remote.getMessage() + " (which could not be rebuilt here: " + e.getMessage() + ")",
          remote.remoteClassName());
    }
  }

  /**
   * The exception of a call that timed out; with a stack trace only for a blocking caller, whose
   * thread is the one that notices.
   */
  CallTimeoutException timeoutException(PendingCall call) {
    Invocation invocation = call.invocation();
    String attempt = call.attempt() > 1 ? " (attempt " + call.attempt() + ")" : "";
    if (!invocation.inherited()) {
      return new CallTimeoutException(
          model.displayName() + " timed out after " + timeoutMillis + " ms waiting for "
              + call.address() + attempt,
          blockingCaller);
    }
    if (invocation.budgetNanos() <= 0) {
      return new CallTimeoutException(
          model.displayName() + " was not sent: " + invocation.deadlineSource()
              + " had passed when it was called",
          blockingCaller);
    }
    long budgetMillis = invocation.budgetNanos() / 1_000_000;
    return new CallTimeoutException(
        model.displayName() + " timed out after "
            + (budgetMillis == 0 ? "less than 1" : budgetMillis) + " ms waiting for "
            + call.address() + attempt + ": " + invocation.deadlineSource() + " passed (its own"
            + " timeout is " + timeoutMillis + " ms)",
        blockingCaller);
  }
}
