package io.rpcx.server.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.util.concurrent.EventExecutor;
import io.rpcx.server.http.HttpExchange;
import io.rpcx.server.http.HttpHandler;
import io.rpcx.server.internal.config.ServerConfig;
import io.rpcx.server.internal.dispatch.ConnectionSide;
import io.rpcx.server.internal.dispatch.HandlerCall;
import io.rpcx.server.internal.dispatch.RequestDispatcher;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An HTTP request read whole, as an {@link HttpHandler} sees it, whichever HTTP version carried it:
 * the request's parts, one answer written on the connection's event loop (a whole body, or chunks
 * requested from a publisher as each is written), and calls through the server's dispatcher on the
 * connection it came on ({@link HandlerCall}). Subclasses write the answer in their HTTP version.
 */
abstract class NettyHttpExchange implements HttpExchange {
  private static final Logger logger = LoggerFactory.getLogger(NettyHttpExchange.class);

  /** Chunks of a body requested before any is written: then one more per chunk written. */
  static final int INITIAL_CHUNKS = 16;

  private final String method;
  private final String path;
  private final String query;
  private final Map<String, String> headers;
  private final byte[] body;
  private final boolean secure;
  private final String protocol;
  /** The connection: its event loop, limits and peer, shared by the calls this request makes. */
  final ConnectionSide connection;
  final EventExecutor eventLoop;
  private final RequestDispatcher dispatcher;
  private final ServerConfig config;
  private final AtomicBoolean answered = new AtomicBoolean();
  /** The body being written, until it ends; event loop only. */
  private BodyWriter bodyWriter;

  NettyHttpExchange(
      String method,
      String target,
      Map<String, String> headers,
      byte[] body,
      boolean secure,
      String protocol,
      ConnectionSide connection,
      EventExecutor eventLoop,
      RequestDispatcher dispatcher,
      ServerConfig config) {
    this.method = method;
    int question = target.indexOf('?');
    this.path = question < 0 ? target : target.substring(0, question);
    this.query = question < 0 ? "" : target.substring(question + 1);
    this.headers = headers;
    this.body = body;
    this.secure = secure;
    this.protocol = protocol;
    this.connection = connection;
    this.eventLoop = eventLoop;
    this.dispatcher = dispatcher;
    this.config = config;
  }

  // The request.

  @Override
  public String method() {
    return method;
  }

  @Override
  public String path() {
    return path;
  }

  @Override
  public String query() {
    return query;
  }

  @Override
  public Map<String, String> headers() {
    return headers;
  }

  @Override
  public byte[] body() {
    return body.clone();
  }

  @Override
  public boolean isSecure() {
    return secure;
  }

  @Override
  public String protocol() {
    return protocol;
  }

  @Override
  public String remoteAddress() {
    return connection.remoteAddress();
  }

  // The answer.

  @Override
  public void respond(int status, Map<String, String> headers, byte[] body) {
    Objects.requireNonNull(headers, "headers");
    Objects.requireNonNull(body, "body");
    if (claim(status)) {
      inEventLoop(() -> writeWhole(status, headers, Unpooled.wrappedBuffer(body)));
    }
  }

  @Override
  public void respond(int status, Map<String, String> headers, Flow.Publisher<byte[]> body) {
    Objects.requireNonNull(headers, "headers");
    Objects.requireNonNull(body, "body");
    if (claim(status)) {
      inEventLoop(
          () -> {
            BodyWriter writer = new BodyWriter();
            bodyWriter = writer;
            writeHead(status, headers);
            body.subscribe(writer);
          });
    }
  }

  /** Whether this is the first answer; a later one is ignored, and logged. */
  private boolean claim(int status) {
    if (status < 100 || status > 599) {
      throw new IllegalArgumentException("status: " + status + " (expected: 100 to 599)");
    }
    if (answered.compareAndSet(false, true)) {
      return true;
    }
    logger.warn("{} {} from {} was answered twice; the second answer ({}) is ignored",
        method, path, remoteAddress(), status);
    return false;
  }

  /** Whether the request was answered (or refused) already. */
  final boolean isAnswered() {
    return answered.get();
  }

  /** Answers 500 if the handler threw before answering; the exception is logged. */
  final void handlerFailed(HttpHandler handler, RuntimeException failure) {
    logger.warn("The HTTP handler {} failed on {} {} from {}",
        handler.getClass().getName(), method, path, remoteAddress(), failure);
    if (!isAnswered()) {
      respond(500, Map.of("content-type", "text/plain; charset=utf-8"),
          "the server failed to answer this request\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  private void inEventLoop(Runnable task) {
    if (eventLoop.inEventLoop()) {
      task.run();
    } else {
      eventLoop.execute(task);
    }
  }

  /** The client is gone (connection closed, stream reset): a body being written stops. */
  final void clientGone() {
    inEventLoop(
        () -> {
          if (bodyWriter != null) {
            bodyWriter.cancel();
          }
        });
  }

  /** Writes the whole answer; takes ownership of {@code body}. Event loop. */
  abstract void writeWhole(int status, Map<String, String> headers, ByteBuf body);

  /** Writes the status and headers of an answer whose body follows in chunks. Event loop. */
  abstract void writeHead(int status, Map<String, String> headers);

  /** Writes one chunk of the body; takes ownership of it. Event loop. */
  abstract ChannelFuture writeChunk(ByteBuf chunk);

  /** Ends the body. Event loop. */
  abstract void writeEnd();

  /** Cuts the answer: its body failed half way. Event loop. */
  abstract void abort(Throwable cause);

  // Calls.

  @Override
  public Flow.Publisher<byte[]> call(
      String service,
      String method,
      Map<String, String> metadata,
      Duration timeout,
      Supplier<byte[]> arguments) {
    return new HandlerCall(
        dispatcher,
        connection,
        config.maxMetadataBytes(),
        config.connection().maxFrameSize(),
        Objects.requireNonNull(service, "service"),
        Objects.requireNonNull(method, "method"),
        Objects.requireNonNull(metadata, "metadata"),
        HandlerCall.timeoutMillis(timeout),
        Objects.requireNonNull(arguments, "arguments"),
        System.nanoTime());
  }

  /**
   * The subscriber of a body given in chunks: it asks for {@link #INITIAL_CHUNKS}, then one more
   * as each is written to the network, so a slow client holds the publisher back.
   */
  private final class BodyWriter implements Flow.Subscriber<byte[]> {
    private volatile Flow.Subscription subscription;
    private volatile boolean done;

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      this.subscription = subscription;
      if (done) {
        subscription.cancel(); // the client went away first
      } else {
        subscription.request(INITIAL_CHUNKS);
      }
    }

    @Override
    public void onNext(byte[] chunk) {
      inEventLoop(
          () -> {
            if (done) {
              return;
            }
            writeChunk(Unpooled.wrappedBuffer(chunk))
                .addListener(
                    written -> {
                      if (written.isSuccess()) {
                        subscription.request(1);
                      } else {
                        cancel();
                      }
                    });
          });
    }

    @Override
    public void onError(Throwable failure) {
      inEventLoop(
          () -> {
            if (!done) {
              done = true;
              logger.warn("The body of the answer to {} {} from {} failed; cutting it",
                  method, path, remoteAddress(), failure);
              abort(failure);
            }
          });
    }

    @Override
    public void onComplete() {
      inEventLoop(
          () -> {
            if (!done) {
              done = true;
              writeEnd();
            }
          });
    }

    /** Stops: the client is gone. */
    void cancel() {
      if (!done) {
        done = true;
        Flow.Subscription current = subscription;
        if (current != null) {
          current.cancel();
        }
      }
    }
  }
}
