package io.rpcx.server.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.transport.TlsFailures;
import io.rpcx.server.http.HttpHandler;
import io.rpcx.server.internal.config.ServerConfig;
import io.rpcx.server.internal.dispatch.ConnectionSide;
import io.rpcx.server.internal.dispatch.RequestDispatcher;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server end of one HTTP/1.x connection, after Netty's {@code HttpServerCodec}: reads each
 * request whole (its body within the {@link io.rpcx.server.http.HttpService}'s limit; {@code
 * Expect: 100-continue} answered), hands it to the {@link HttpHandler} as an {@link Http1Exchange},
 * and answers requests in the order they came (pipelined ones wait their turn). A request over a
 * limit or not valid HTTP is refused through the handler ({@link HttpHandler#refuse}), and the
 * connection closes after that answer. As a {@link ConnectionSide} it holds the connection's
 * limit of calls in flight, its drain state and its event loop, for the calls the requests make.
 */
final class Http1ServerHandler extends ChannelInboundHandlerAdapter
    implements ConnectionSide, ServedConnection {
  private static final Logger logger = LoggerFactory.getLogger(Http1ServerHandler.class);
  /** Requests read whole and waiting for the answers of those before them, at most. */
  static final int MAX_PIPELINED = 16;

  private final ServerTransport transport;
  private final RequestDispatcher dispatcher;
  private final HttpHandler handler;
  private final int maxRequestBytes;
  private final ServerConfig config;
  private final CallsInFlight callsInFlight;
  private ChannelHandlerContext ctx;
  private String remoteAddress = "?";
  private boolean secure;
  private volatile String drainReason;
  /** The connection closes after the answer in progress: it reached its maximum age. */
  private volatile boolean retiring;
  private boolean overConnectionLimit;

  // Event loop only.
  /** The request being read, until its last content. */
  private HttpRequest reading;
  private CompositeByteBuf body;
  /** The rest of the connection's input is ignored: a request was refused, the connection closes. */
  private boolean discarding;
  /** The request being answered, or null. */
  private Http1Exchange answering;
  private final ArrayDeque<Http1Exchange> waiting = new ArrayDeque<>();

  Http1ServerHandler(
      ServerTransport transport,
      RequestDispatcher dispatcher,
      HttpHandler handler,
      int maxRequestBytes,
      ServerConfig config) {
    this.transport = transport;
    this.dispatcher = dispatcher;
    this.handler = handler;
    this.maxRequestBytes = maxRequestBytes;
    this.config = config;
    this.callsInFlight = new CallsInFlight(config.connection().maxConcurrentCallsPerConnection());
  }

  boolean isSecure() {
    return secure;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
    this.remoteAddress = String.valueOf(ctx.channel().remoteAddress());
    this.secure = ctx.pipeline().get(SslHandler.class) != null;
    transport.connectionServed(ctx.channel(), this);
    // A request line chose this protocol: the connection has spoken it.
    overConnectionLimit = !transport.connectionSpoke(ctx.channel());
    if (overConnectionLimit) {
      transport.logRefusal(
          ctx.channel().remoteAddress(),
          (transport.connectionCount() - 1) + " connections are open (limit maxConnections "
              + transport.maxConnections() + ")");
    }
    String shuttingDown = transport.goAwayReason();
    if (shuttingDown != null) {
      drainReason = shuttingDown;
    }
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      if (discarding) {
        return;
      }
      if (msg instanceof HttpRequest request) {
        started(request);
      }
      if (msg instanceof HttpContent content && reading != null) {
        content(content);
      }
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  /** A request's line and headers arrived. */
  private void started(HttpRequest request) {
    DecoderResult result = request.decoderResult();
    if (result.isFailure()) {
      refuse(request, malformedStatus(result.cause()), "malformed HTTP request: " + describe(result.cause()));
      return;
    }
    if (overConnectionLimit) {
      refuse(request, 503,
          "the server has too many connections (limit " + transport.maxConnections() + ")");
      return;
    }
    long announced = HttpUtil.getContentLength(request, -1L);
    if (announced > maxRequestBytes) {
      refuse(request, 413, tooLarge("announces a body of " + announced + " bytes"));
      return;
    }
    reading = request;
    body = ctx.alloc().compositeBuffer();
    if (HttpUtil.is100ContinueExpected(request)) {
      ctx.writeAndFlush(
          new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
    }
  }

  private String tooLarge(String what) {
    return "the request " + what + ", over the limit of " + maxRequestBytes + " bytes";
  }

  /** A piece of the body of the request being read. */
  private void content(HttpContent content) {
    if (content.decoderResult().isFailure()) {
      HttpRequest request = reading;
      dropBody();
      refuse(request, 400, "malformed HTTP request body: " + describe(content.decoderResult().cause()));
      return;
    }
    ByteBuf bytes = content.content();
    if (body.readableBytes() + (long) bytes.readableBytes() > maxRequestBytes) {
      HttpRequest request = reading;
      dropBody();
      refuse(request, 413, tooLarge("sends a body of more than " + maxRequestBytes + " bytes"));
      return;
    }
    if (bytes.isReadable()) {
      body.addComponent(true, bytes.retain());
    }
    if (content instanceof LastHttpContent) {
      HttpRequest request = reading;
      byte[] whole = ByteBufUtil.getBytes(body);
      dropBody();
      enqueue(exchange(request, whole, 0, null));
    }
  }

  private void dropBody() {
    reading = null;
    if (body != null) {
      body.release();
      body = null;
    }
  }

  /** Refuses {@code request} (answered in its turn), and reads nothing more. */
  private void refuse(HttpRequest request, int status, String problem) {
    logger.debug("Refusing {} {} from {}: {}", request.method(), request.uri(), remoteAddress, problem);
    discarding = true;
    enqueue(exchange(request, new byte[0], status, problem));
  }

  private Http1Exchange exchange(HttpRequest request, byte[] body, int status, String problem) {
    Map<String, String> headers = new LinkedHashMap<>();
    for (Map.Entry<String, String> header : request.headers()) {
      headers.merge(header.getKey().toLowerCase(Locale.ROOT), header.getValue(), (a, b) -> a + ", " + b);
    }
    return new Http1Exchange(
        this,
        ctx,
        request.method().name(),
        request.uri(),
        request.protocolVersion(),
        java.util.Collections.unmodifiableMap(headers),
        body,
        HttpUtil.isKeepAlive(request),
        status,
        problem,
        dispatcher,
        config);
  }

  private void enqueue(Http1Exchange exchange) {
    if (answering == null) {
      answer(exchange);
    } else if (waiting.size() < MAX_PIPELINED) {
      waiting.add(exchange);
    } else {
      logger.warn("Closing HTTP connection from {}: more than {} pipelined requests waiting",
          remoteAddress, MAX_PIPELINED);
      ctx.close();
    }
  }

  private void answer(Http1Exchange exchange) {
    answering = exchange;
    try {
      if (exchange.refusedProblem != null) {
        handler.refuse(exchange, exchange.refusedStatus, exchange.refusedProblem);
      } else {
        handler.handle(exchange);
      }
    } catch (RuntimeException e) {
      exchange.handlerFailed(handler, e);
    }
  }

  /** {@code exchange}'s answer was written (or failed to be): the next request's turn. */
  void answered(Http1Exchange exchange, boolean close) {
    if (answering != exchange) {
      return;
    }
    answering = null;
    if (close || !ctx.channel().isActive()) {
      ctx.close();
      return;
    }
    Http1Exchange next = waiting.poll();
    if (next != null) {
      answer(next);
    }
  }

  private static int malformedStatus(Throwable cause) {
    if (cause instanceof TooLongHttpHeaderException) {
      return 431;
    }
    if (cause instanceof TooLongHttpLineException) {
      return 414;
    }
    return 400;
  }

  private static String describe(Throwable cause) {
    String message = cause.getMessage();
    return message == null || message.isEmpty() ? cause.getClass().getSimpleName() : message;
  }

  // The connection.

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    transport.connectionGone(this);
    dropBody();
    if (answering != null) {
      answering.clientGone();
      answering = null;
    }
    waiting.clear();
    super.channelInactive(ctx);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
    if (event instanceof IdleStateEvent idle
        && idle.state() == IdleState.READER_IDLE
        && answering == null
        && reading == null) {
      logger.debug("Closing HTTP connection from {}: idle", remoteAddress);
      ctx.close();
    }
    super.userEventTriggered(ctx, event);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    SSLException tls = TlsFailures.find(cause);
    if (tls != null) {
      logger.warn("Closing HTTP connection from {}: TLS failed: {}", remoteAddress, tls.getMessage());
    } else if (cause instanceof IOException || cause instanceof TooLongFrameException) {
      logger.debug("HTTP connection from {} failed: {}", remoteAddress, cause.toString());
    } else {
      logger.warn("HTTP connection from {} failed; closing it", remoteAddress, cause);
    }
    ctx.close();
  }

  // ConnectionSide, for the calls of this connection's requests.

  @Override
  public Future<?> schedule(Runnable task, long delayNanos) {
    return ctx.executor().schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
  }

  @Override
  public String drainReason() {
    return drainReason;
  }

  @Override
  public boolean tryStartCall() {
    return callsInFlight.tryStart();
  }

  @Override
  public void callAnswered() {
    callsInFlight.answered();
  }

  @Override
  public void callFinished() {
    callsInFlight.finish();
  }

  @Override
  public int maxConcurrentCalls() {
    return callsInFlight.limit();
  }

  @Override
  public String remoteAddress() {
    return remoteAddress;
  }

  @Override
  public void reset() {
    // Behind what is queued on the event loop, which is written first.
    ctx.executor().execute(() -> ServedConnection.resetNow(ctx.channel()));
  }

  @Override
  public void closeForProtocolError(StatusCode code, String problem) {
    ctx.executor()
        .execute(
            () -> {
              logger.warn("Closing HTTP connection from {}: {}", remoteAddress, problem);
              ctx.close();
            });
  }

  // ServedConnection, for the transport.

  /**
   * The server drains: new calls are refused from now on; an idle connection closes at once, a
   * busy one after its answer (which says {@code connection: close}).
   */
  @Override
  public void goAway(StatusCode code, String reason) {
    drainReason = reason;
    ctx.executor()
        .execute(
            () -> {
              if (answering == null && reading == null) {
                ctx.close();
              }
            });
  }

  /**
   * Closes the connection once the answer in progress (if any) is written, each answer saying
   * {@code Connection: close} from now on; the server keeps serving, so the client's next request
   * opens another connection.
   */
  @Override
  public void retire(String reason) {
    retiring = true;
    ctx.executor()
        .execute(
            () -> {
              if (answering == null && reading == null) {
                ctx.close();
              }
            });
  }

  /** Whether the connection closes after the answer in progress. */
  boolean closesAfterAnswer() {
    return retiring || drainReason != null;
  }

  @Override
  public ChannelFuture close(String reason) {
    return ctx.channel().close();
  }
}
