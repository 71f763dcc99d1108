package io.rpcx.client.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.AsciiString;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import io.rpcx.client.internal.call.CallOwner;
import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.core.BadRequestException;
import io.rpcx.core.CancelledException;
import io.rpcx.core.InternalErrorException;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.grpc.GrpcElement;
import io.rpcx.core.internal.grpc.GrpcMessages;
import io.rpcx.core.internal.grpc.GrpcStatus;
import io.rpcx.core.internal.grpc.GrpcTimeout;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import io.rpcx.core.internal.stream.StreamReceiver;
import io.rpcx.core.internal.stream.StreamSender;
import io.rpcx.core.internal.transport.FrameOverLimitException;
import io.rpcx.core.internal.transport.Frames;
import io.rpcx.core.internal.transport.GrpcFraming;
import io.rpcx.core.internal.transport.NettyPayload;
import io.rpcx.core.internal.transport.QueuedWrite;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One call to a gRPC server: its HTTP/2 stream from the request to the call's end (docs/GRPC.md,
 * "Calling gRPC servers from RPCX"), and the connection the call layer sees ({@link CallOwner}).
 *
 * <p>Request: headers ({@code :path} of the method's exported rpc, {@code grpc-timeout} from the
 * call's deadline, the call's metadata) and, unless the method takes only a stream, one message of
 * its arguments ({@link GrpcMessages}), encoded on the calling thread; a unary or server-stream
 * call half-closes with it. A stream argument's elements follow as messages, each encoded on the
 * publisher's thread, and its end as an empty DATA frame ending the stream. They go out as HTTP/2
 * flow control lets them: the publisher is granted a message more as each one is written, never
 * more than {@value #MAX_UPLOAD_AHEAD} ahead nor (counted at the largest message seen) past
 * {@value #UPLOAD_BUFFER_BYTES} bytes waiting.
 *
 * <p>Reply: the response headers, the messages ({@link GrpcFraming.Deframer}) and the trailers
 * ({@code grpc-status}, {@code grpc-message}, {@code rpcx-exception-class}), which give a unary or
 * client-stream call its reply or its typed exception ({@link GrpcStatus#toRpcx}), and a server
 * stream its end. A server stream's messages go to its {@link StreamReceiver} as the receiver's
 * credit allows; those it cannot take yet wait here, and their bytes are given back to HTTP/2's
 * flow control only when they are handed on, so a slow subscriber slows the server down instead of
 * filling memory. The trailers reach the receiver after the last of them.
 *
 * <p>Cancelling (the caller gives up, a subscriber cancels, the deadline passes, the stream
 * argument fails) resets the stream with {@code RST_STREAM(CANCEL)}. Built on the calling thread;
 * everything else on the connection's event loop, except the {@link CallOwner} methods, which any
 * thread may call and which hand their work to the loop.
 */
final class GrpcClientStream implements CallOwner, QueuedWrite, Runnable {
  /** Most elements of a stream argument the publisher is asked for before earlier ones are written. */
  static final int MAX_UPLOAD_AHEAD = 16;
  /** Bytes of a stream argument waiting to be written above which the publisher is asked for none. */
  static final int UPLOAD_BUFFER_BYTES = 1 << 20;

  static final AsciiString CONTENT_TYPE = AsciiString.cached("content-type");
  static final AsciiString APPLICATION_GRPC = AsciiString.cached("application/grpc");
  private static final AsciiString POST = AsciiString.cached("POST");
  private static final AsciiString TE = AsciiString.cached("te");
  private static final AsciiString TRAILERS = AsciiString.cached("trailers");
  private static final AsciiString USER_AGENT = AsciiString.cached("user-agent");
  private static final AsciiString AGENT = AsciiString.cached("rpcx-java");
  private static final AsciiString GRPC_TIMEOUT = AsciiString.cached("grpc-timeout");
  private static final AsciiString GRPC_ENCODING = AsciiString.cached("grpc-encoding");
  private static final AsciiString GRPC_ACCEPT_ENCODING = AsciiString.cached("grpc-accept-encoding");
  private static final AsciiString ACCEPTED_ENCODINGS = AsciiString.cached("identity,gzip");
  private static final AsciiString GRPC_STATUS = AsciiString.cached("grpc-status");
  private static final AsciiString GRPC_MESSAGE = AsciiString.cached("grpc-message");
  private static final AsciiString EXCEPTION_CLASS = AsciiString.cached("rpcx-exception-class");
  private static final NettyPayload NO_PAYLOAD = new NettyPayload(Unpooled.EMPTY_BUFFER);

  private final GrpcConnection connection;
  final PendingCall call;
  private final Http2Headers headers;
  /** The message of the arguments, until written; null when the method takes only a stream. */
  private ByteBuf request;
  /** Whether the request message ends what the client sends: no stream argument follows. */
  private final boolean halfClosesWithRequest;
  private final boolean serverStreams;

  // The event loop's.
  private int id;
  /** The HTTP/2 stream while it is open; null before it is written and once it closed. */
  private Http2Stream stream;
  private boolean registered;
  /** The call has its outcome here (or its caller gave up): nothing more is handed on. */
  private boolean over;
  private ScheduledFuture<?> deadline;
  private GrpcFraming.Deframer deframer;
  /** The reply message of a unary or client-stream call, until the trailers say it stands. */
  private ByteBuf reply;
  private int replyWireSize;
  /** A server stream's messages its receiver has no credit for yet, oldest first. */
  private ArrayDeque<Held> held;
  private long heldWireBytes;
  /** Bytes received and not yet given back to HTTP/2's flow control. */
  private long unreturnedBytes;
  /** The bytes of an incomplete message counted in the connection's inbound budget. */
  private int partialBytes;
  /** Messages the receiver may take now. */
  private long credit;
  /** The trailers of a server stream, kept until its held messages are handed on. */
  private End end;
  // The upload of a stream argument.
  private long uploadGranted;
  private long uploadQueued;
  private long uploadWaitingBytes;
  private int largestUpload;

  /** A message the receiver has no credit for yet, with the bytes it took of the window. */
  private record Held(GrpcElement element, int wireSize) {}

  /** How a server stream ended: {@code code} null when normally. */
  private record End(StatusCode code, String message, String exceptionClass) {}

  private GrpcClientStream(
      GrpcConnection connection, PendingCall call, Http2Headers headers, ByteBuf request) {
    this.connection = connection;
    this.call = call;
    this.headers = headers;
    this.request = request;
    MethodModel model = call.model();
    this.halfClosesWithRequest = model.streamParameterIndex() < 0;
    this.serverStreams = model.descriptor().shape().serverStreams();
  }

  /**
   * The stream of {@code call} on {@code connection}: its headers and its request message, made
   * on the calling thread.
   *
   * @throws RpcxException if the call cannot be sent over gRPC (its arguments or metadata cannot
   *     be encoded, or the request is over the message limit); nothing was sent
   */
  static GrpcClientStream of(GrpcConnection connection, PendingCall call) {
    MethodModel model = call.model();
    AsciiString path;
    try {
      path = connection.path(call);
    } catch (IllegalStateException e) {
      throw new BadRequestException(
          model.displayName() + " cannot be called over gRPC: " + e.getMessage(), e);
    }
    Map<String, String> metadata = call.sentMetadata();
    Http2Headers headers = new DefaultHttp2Headers(false, 8 + metadata.size());
    headers
        .method(POST)
        .scheme(connection.scheme())
        .path(path)
        .authority(connection.authority())
        .add(CONTENT_TYPE, APPLICATION_GRPC)
        .add(TE, TRAILERS)
        .add(GRPC_ACCEPT_ENCODING, ACCEPTED_ENCODINGS);
    if (!metadata.containsKey("user-agent")) {
      headers.add(USER_AGENT, AGENT);
    }
    int timeout = call.sentTimeoutMillis();
    if (timeout > 0) {
      headers.add(GRPC_TIMEOUT, GrpcTimeout.format(timeout));
    }
    for (Map.Entry<String, String> entry : metadata.entrySet()) {
      String key = entry.getKey();
      if (isReserved(key)) {
        continue; // gRPC's own headers are the transport's
      }
      String problem = GrpcConnection.metadataProblem(key, entry.getValue());
      if (problem != null) {
        throw new BadRequestException(
            model.displayName() + " cannot be called over gRPC: metadata '" + key + "' "
                + problem);
      }
      headers.add(key, entry.getValue());
    }
    ByteBuf request = null;
    if (!model.descriptor().shape().clientStreams()
        || GrpcMessages.streamStartsWithArguments(model)) {
      request = encode(connection, call, out -> GrpcMessages.writeArguments(out, model, call.args()));
      int size = GrpcFraming.messageSize(request);
      call.sizeHints().request(size);
      call.encoded(size);
    }
    return new GrpcClientStream(connection, call, headers, request);
  }

  private static boolean isReserved(String key) {
    return key.startsWith("grpc-") || key.equals("content-type") || key.equals("te");
  }

  /** A request message written by {@code writer}, prefixed. */
  private static ByteBuf encode(
      GrpcConnection connection, PendingCall call, Frames.PayloadWriter writer) {
    MethodModel model = call.model();
    try {
      return GrpcFraming.encode(
          connection.alloc(), call.sizeHints().request(), connection.maxMessageSize(), writer);
    } catch (FrameOverLimitException e) {
      throw new ResourceExhaustedException(
          "the request of " + model.displayName() + " is over the message limit of "
              + connection.maxMessageSize() + " bytes");
    } catch (IOException | RuntimeException e) {
      throw new BadRequestException(
          "cannot encode the arguments of " + model.displayName() + ": " + e.getMessage(), e);
    }
  }

  // The deadline.

  /** Times the call out on {@code loop} when its deadline passes, unless already timed. */
  void startDeadline(EventExecutor loop) {
    if (deadline == null) {
      deadline = loop.schedule(this, Math.max(0, call.remainingNanos()), TimeUnit.NANOSECONDS);
    }
  }

  /** The deadline passed: on the event loop. The server is told to stop. */
  @Override
  public void run() {
    if (over) {
      return;
    }
    forget();
    cancel();
    call.timeOut();
    connection.flush();
  }

  // Written on the event loop.

  @Override
  public void writeTo(Channel channel) {
    connection.write(this);
  }

  @Override
  public void abort(Throwable cause) {
    discard();
    call.fail(connection.failures().notSentClientClosed(call));
  }

  /** The call will not be written: lets go of its request and its timer. */
  void discard() {
    over = true;
    if (request != null) {
      request.release();
      request = null;
    }
    cancelDeadline();
  }

  private void cancelDeadline() {
    if (deadline != null) {
      deadline.cancel(false);
    }
  }

  /** Writes the request on stream {@code streamId}, which the connection allotted it. */
  void start(GrpcClientHandler handler, int streamId) {
    id = streamId;
    ChannelPromise headersWritten = handler.newPromise();
    headersWritten.addListener(
        future -> {
          if (!future.isSuccess()) {
            // Not written whole: the server cannot have seen the call.
            fail(
                UnavailableException.notProcessed(
                    call.model().displayName() + " was not sent to " + connection.address()
                        + ": " + CallFailures.describe(future.cause()),
                    null));
          }
        });
    stream = handler.writeHeaders(streamId, headers, headersWritten);
    if (stream == null || over) {
      if (request != null) {
        request.release();
        request = null;
      }
      return; // failed at once; the listener failed the call
    }
    handler.attach(stream, this);
    registered = true;
    connection.registered();
    credit = call.initialCredit();
    if (call.needsTimer()) {
      startDeadline(handler.executor());
    }
    if (request != null) {
      ByteBuf message = request;
      request = null;
      handler.writeData(streamId, message, halfClosesWithRequest, handler.newPromise());
    }
    if (call.sender() != null) {
      grantUpload(); // the stream argument goes up as HTTP/2 takes it
    }
  }

  // The response, on the event loop.

  /** Response headers, or the trailers when {@code endOfStream}. */
  void onHeaders(Http2Headers received, boolean endOfStream) {
    if (over) {
      return;
    }
    if (deframer == null) {
      String problem = responseProblem(received);
      if (problem != null) {
        CharSequence status = received.get(GRPC_STATUS);
        if (endOfStream && status != null) {
          trailers(received); // an HTTP error that still says its gRPC status
        } else {
          fail(statusFromHttp(received.status(), problem));
        }
        return;
      }
      CharSequence encoding = received.get(GRPC_ENCODING);
      boolean gzip = encoding != null && AsciiString.contentEquals(encoding, "gzip");
      if (encoding != null && !gzip && !AsciiString.contentEquals(encoding, "identity")) {
        fail(
            protocolFailure(
                "answered with grpc-encoding '" + encoding + "', which the client did not offer"));
        return;
      }
      deframer = new GrpcFraming.Deframer(connection.alloc(), connection.maxMessageSize(), gzip);
      if (endOfStream) {
        trailers(received); // trailers-only
      }
      return;
    }
    if (!endOfStream) {
      fail(protocolFailure("sent a second HEADERS frame that does not end the stream"));
      return;
    }
    trailers(received);
  }

  private static String responseProblem(Http2Headers received) {
    CharSequence status = received.status();
    if (status == null || !AsciiString.contentEquals(status, "200")) {
      return "answered with HTTP status " + status;
    }
    CharSequence type = received.get(CONTENT_TYPE);
    if (type == null || !AsciiString.regionMatches(type, false, 0, APPLICATION_GRPC, 0, 16)) {
      return "answered with content-type '" + type + "', not application/grpc";
    }
    return null;
  }

  /** gRPC's mapping of an HTTP status for a response without {@code grpc-status}. */
  private RpcxException statusFromHttp(CharSequence httpStatus, String problem) {
    int code;
    switch (httpStatus == null ? "" : httpStatus.toString()) {
      case "400":
        code = GrpcStatus.INTERNAL;
        break;
      case "401":
        code = GrpcStatus.UNAUTHENTICATED;
        break;
      case "403":
        code = GrpcStatus.PERMISSION_DENIED;
        break;
      case "404":
        code = GrpcStatus.UNIMPLEMENTED;
        break;
      case "429":
      case "502":
      case "503":
      case "504":
        code = GrpcStatus.UNAVAILABLE;
        break;
      default:
        code = GrpcStatus.UNKNOWN;
    }
    String message = "the server at " + connection.address() + " " + problem + " (is it a gRPC server?)";
    StatusCode status = GrpcStatus.toRpcx(code);
    return status == StatusCode.UNAVAILABLE
        ? UnavailableException.mayHaveRun(message, null)
        : RpcxException.of(status, message);
  }

  /** One DATA frame; returns the bytes to give back to flow control at once. */
  int onData(ByteBuf data, int padding, boolean endOfStream) {
    int bytes = data.readableBytes() + padding;
    if (over) {
      return bytes;
    }
    if (deframer == null) {
      fail(protocolFailure("sent DATA before its response headers"));
      return bytes;
    }
    unreturnedBytes += bytes;
    deframer.add(data);
    try {
      ByteBuf message;
      while (!over && (message = deframer.next()) != null) {
        message(message, deframer.lastWireSize());
      }
    } catch (GrpcFraming.MessageException e) {
      fail(
          e.isOverLimit()
              ? new ResourceExhaustedException(
                  "a reply of " + call.model().displayName() + " from " + connection.address()
                      + " is too large: " + e.getMessage())
              : protocolFailure("sent a malformed message: " + e.getMessage()));
    }
    if (!over) {
      countPartial(deframer.bufferedBytes());
      if (endOfStream) {
        fail(protocolFailure("ended the stream without trailers (grpc-status)"));
      }
    }
    return over ? bytes : giveBack();
  }

  /** One whole message of the response; this takes {@code message}. */
  private void message(ByteBuf message, int wireSize) {
    if (!serverStreams) {
      if (reply != null) {
        message.release();
        fail(protocolFailure("sent more than one reply message for a call that takes one"));
        return;
      }
      reply = message;
      replyWireSize = wireSize;
      return;
    }
    if (held == null) {
      held = new ArrayDeque<>();
    }
    held.add(
        new Held(
            new GrpcElement(new NettyPayload(message, connection.meter()), 1), wireSize));
    heldWireBytes += wireSize;
    deliver();
  }

  /** Hands the receiver the held messages its credit allows; ends the stream after the last. */
  private void deliver() {
    StreamReceiver receiver = call.receiver();
    boolean kept = false;
    Held next;
    while (credit > 0 && held != null && (next = held.poll()) != null) {
      credit--;
      heldWireBytes -= next.wireSize();
      kept |= receiver.message(next.element());
    }
    if (kept) {
      connection.arrived(receiver);
    }
    if (end != null && (held == null || held.isEmpty())) {
      End ended = end;
      forget();
      call.streamEnded(ended.code(), ended.message(), ended.exceptionClass(), null, null);
    }
  }

  /** The bytes that may go back to flow control now: all but those of messages held. */
  private int giveBack() {
    long keep = Math.min(unreturnedBytes, heldWireBytes);
    long give = unreturnedBytes - keep;
    unreturnedBytes = keep;
    return (int) give;
  }

  /** The trailers: the call's status. */
  private void trailers(Http2Headers trailers) {
    CharSequence statusText = trailers.get(GRPC_STATUS);
    int code = statusText == null ? -1 : parseStatus(statusText);
    if (code < 0) {
      fail(
          protocolFailure(
              statusText == null
                  ? "ended the call without grpc-status"
                  : "ended the call with grpc-status '" + statusText + "'"));
      return;
    }
    StatusCode status = null;
    String message = "";
    String exceptionClass = "";
    if (code != GrpcStatus.OK) {
      status = GrpcStatus.toRpcx(code);
      CharSequence text = trailers.get(GRPC_MESSAGE);
      message = text == null ? "" : GrpcStatus.decodeMessage(text);
      if (GrpcStatus.of(status) != code) {
        // A code RPCX has no status of its own for: the caller still sees which.
        message = GrpcStatus.name(code) + (message.isEmpty() ? "" : ": " + message);
      }
      CharSequence thrown = trailers.get(EXCEPTION_CLASS);
      exceptionClass = thrown == null ? "" : thrown.toString();
    }
    // A client still sending (a stream argument) stops: the server is done with the call.
    boolean stillSending = stream != null && stream.state().localSideOpen();
    if (serverStreams) {
      end = new End(status, message, exceptionClass);
      if (stillSending) {
        cancel();
      }
      deliver();
      return;
    }
    ByteBuf value = reply;
    reply = null;
    forget();
    if (stillSending) {
      cancel();
    }
    if (status == StatusCode.UNAVAILABLE) {
      // A gRPC server may say UNAVAILABLE after running the call (its own dependency failed):
      // unlike RPCX's, retried only for idempotent methods. A stream it refused unrun is
      // REFUSED_STREAM or beyond its GOAWAY instead.
      if (value != null) {
        value.release();
      }
      fail(
          UnavailableException.mayHaveRun(
              call.model().displayName() + " failed on " + connection.address() + ": " + message,
              null));
    } else if (status != null) {
      if (value != null) {
        value.release();
      }
      call.reply(ReplyEnvelope.error(id, status, message, exceptionClass), NO_PAYLOAD);
    } else if (value == null) {
      fail(protocolFailure("ended " + call.model().displayName() + " with OK but no reply message"));
    } else {
      NettyPayload payload = new NettyPayload(value, connection.meter());
      call.reply(ReplyEnvelope.value(id, 0, payload.length()), payload);
    }
  }

  private static int parseStatus(CharSequence text) {
    if (text.length() == 0 || text.length() > 3) {
      return -1;
    }
    int code = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      code = code * 10 + (c - '0');
    }
    return code;
  }

  /** The server reset the stream. */
  void onReset(long errorCode) {
    if (over) {
      return;
    }
    stream = null; // reset by the server: never reset back
    String what =
        "the server at " + connection.address() + " reset " + call.model().displayName()
            + " (RST_STREAM " + Http2Error.valueOf(errorCode) + ")";
    RpcxException failure;
    if (errorCode == Http2Error.REFUSED_STREAM.code()) {
      failure = UnavailableException.notProcessed(what + ": not processed");
    } else if (errorCode == Http2Error.CANCEL.code()) {
      failure = new CancelledException(what, null);
    } else if (errorCode == Http2Error.ENHANCE_YOUR_CALM.code()) {
      failure = new ResourceExhaustedException(what);
    } else {
      failure = new InternalErrorException(what, null);
    }
    fail(failure);
  }

  /** The HTTP/2 stream closed (both sides ended, a reset, or the connection closing). */
  void onClosed() {
    stream = null;
    if (over || end != null) {
      return; // ended already, or waiting only for its subscriber to take what is held
    }
    fail(connection.lostFailure(call, id));
  }

  // From the call layer, any thread: the work goes to the event loop, behind what is queued.

  @Override
  public void abandon(PendingCall abandoned, String reason) {
    connection.onLoop(this::cancelAndForget); // RST_STREAM(CANCEL) carries no text
  }

  @Override
  public void cancelStream(PendingCall cancelled, String message) {
    connection.onLoop(this::cancelAndForget); // RST_STREAM carries no text
  }

  private void cancelAndForget() {
    if (!over) {
      forget();
      cancel();
    }
  }

  @Override
  public void sendCredit(PendingCall receiving, int messages) {
    connection.onLoop(
        () -> {
          credit += Integer.toUnsignedLong(messages);
          if (!over) {
            deliver();
            returnBytes();
            connection.handOn(); // not in a read: the receiver takes what it got now
          }
        });
  }

  @Override
  public boolean sendStreamMessage(PendingCall sending, Object element) throws IOException {
    ByteBuf message;
    try {
      message =
          GrpcFraming.encode(
              connection.alloc(),
              call.sizeHints().replyValue() + GrpcFraming.PREFIX_SIZE,
              connection.maxMessageSize(),
              out -> GrpcMessages.writeElement(out, call.model(), element));
    } catch (FrameOverLimitException e) {
      return false;
    }
    int size = GrpcFraming.messageSize(message);
    call.sizeHints().replyValue(size);
    connection.onLoop(
        new QueuedWrite() {
          @Override
          public void writeTo(Channel channel) {
            writeElement(message, size);
          }

          @Override
          public void abort(Throwable cause) {
            message.release();
          }
        });
    return true;
  }

  private void writeElement(ByteBuf message, int size) {
    if (over || stream == null || !stream.state().localSideOpen()) {
      message.release();
      return;
    }
    GrpcClientHandler handler = connection.handler();
    uploadQueued++;
    uploadWaitingBytes += size;
    largestUpload = Math.max(largestUpload, size);
    ChannelPromise written = handler.newPromise();
    written.addListener(
        future -> {
          uploadWaitingBytes -= size;
          if (future.isSuccess() && !over) {
            grantUpload();
          }
        });
    handler.writeData(id, message, false, written);
  }

  @Override
  public void sendStreamEnd(PendingCall sending) {
    connection.onLoop(
        () -> {
          if (!over && stream != null && stream.state().localSideOpen()) {
            connection
                .handler()
                .writeData(id, Unpooled.EMPTY_BUFFER, true, connection.handler().newPromise());
          }
        });
  }

  @Override
  public PeerSchemas peerSchemas() {
    return null; // the server reads and writes POJOs with the exported numbering: ours
  }

  /**
   * Asks the stream argument's publisher for what may go out now: as many elements as fit in the
   * buffer at the largest size seen (one at a time before any was seen, and always one when
   * nothing waits), at most {@value #MAX_UPLOAD_AHEAD} ahead of those written.
   */
  private void grantUpload() {
    StreamSender sender = call.sender();
    if (sender == null) {
      return;
    }
    long ahead = uploadGranted - uploadQueued;
    long fit =
        largestUpload == 0
            ? 1
            : Math.max(0, (UPLOAD_BUFFER_BYTES - uploadWaitingBytes) / largestUpload);
    if (fit == 0 && uploadWaitingBytes == 0) {
      fit = 1; // a message larger than the buffer goes alone
    }
    long more = Math.min(MAX_UPLOAD_AHEAD, fit) - ahead;
    if (more > 0) {
      uploadGranted += more;
      sender.credit((int) more);
    }
  }

  // Ending.

  /**
   * Resets the stream if it is open: the server stops (and so does this side). Only once the call
   * is {@link #over} or has its {@link #end}: the reset closes the stream at once ({@link
   * #onClosed}).
   */
  private void cancel() {
    if (stream != null && stream.state() != Http2Stream.State.CLOSED) {
      connection.handler().reset(stream, Http2Error.CANCEL);
    }
  }

  /** Gives the bytes that may go back to flow control. */
  private void returnBytes() {
    int give = giveBack();
    if (give > 0 && stream != null) {
      connection.handler().consume(stream, give);
    }
  }

  /**
   * The call has its outcome, or is given up: what is held is let go of, and the connection no
   * longer counts it. Once.
   */
  private void forget() {
    if (over) {
      return;
    }
    over = true;
    cancelDeadline();
    countPartial(0);
    if (deframer != null) {
      deframer.release();
    }
    if (reply != null) {
      reply.release();
      reply = null;
    }
    if (held != null) {
      Held next;
      while ((next = held.poll()) != null) {
        next.element().release();
      }
      heldWireBytes = 0;
    }
    // What the stream holds of the receive windows goes back when it closes, which follows: it
    // ended, or is reset.
    unreturnedBytes = 0;
    if (registered) {
      registered = false;
      connection.unregistered();
    }
  }

  /** Ends the call with {@code failure}, here: its stream is forgotten, and reset if open. */
  private void fail(RpcxException failure) {
    forget();
    cancel();
    call.fail(failure);
  }

  /** Tells the connection this stream's incomplete message now holds {@code bytes}. */
  private void countPartial(int bytes) {
    if (bytes != partialBytes) {
      connection.partialChanged(bytes - partialBytes);
      partialBytes = bytes;
    }
  }

  private InternalErrorException protocolFailure(String problem) {
    return new InternalErrorException(
        "the server at " + connection.address() + " " + problem + " (" + call.model().displayName()
            + ")",
        null);
  }
}
