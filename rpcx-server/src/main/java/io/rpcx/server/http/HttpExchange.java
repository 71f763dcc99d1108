package io.rpcx.server.http;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Flow;
import java.util.function.Supplier;

/**
 * One HTTP request read whole, its answer, and the calls it makes. The request's parts may be read
 * from any thread; {@link #respond} is called exactly once, from any thread (a second answer is
 * ignored), with an answer the server writes on the connection's network thread.
 */
public interface HttpExchange {

  /** The request's method: {@code GET}, {@code POST}, ... */
  String method();

  /** The path of the request's target as it was sent (percent-encoded), without the query. */
  String path();

  /** The query of the request's target as it was sent, without {@code ?}; empty if none. */
  String query();

  /**
   * The request's headers by name in lower case, in the order they came; a header sent more than
   * once has its values joined by {@code ", "}. HTTP/2's pseudo-headers are not among them.
   */
  Map<String, String> headers();

  /** The request's body, empty if it has none. A new array each call. */
  byte[] body();

  /** Whether the request came over TLS. */
  boolean isSecure();

  /** {@code HTTP/1.1} (or {@code HTTP/1.0}) or {@code HTTP/2}. */
  String protocol();

  /** The client's address, for logs and messages. */
  String remoteAddress();

  /**
   * Answers with {@code status}, {@code headers} (names in lower case; {@code content-length} is
   * the server's) and the whole {@code body}.
   */
  void respond(int status, Map<String, String> headers, byte[] body);

  /**
   * Answers with {@code status} and {@code headers}, then a body of the chunks {@code body} gives:
   * the server subscribes, requests a few chunks, then one more as each is written to the network,
   * so that a slow client slows the publisher down instead of filling memory; it cancels the
   * subscription if the client goes away. The answer ends when the publisher completes; if it
   * fails, the response is cut (HTTP/1.1: the connection closes; HTTP/2: the stream is reset).
   */
  void respond(int status, Map<String, String> headers, Flow.Publisher<byte[]> body);

  /**
   * Calls {@code service/method} on this server, as the call of a client on this connection: the
   * same dispatcher, interceptors (authentication, metrics, tracing), limits of calls in flight,
   * executor, deadline and context as an RPCX or gRPC call, refused the same way while the server
   * shuts down. The returned publisher is cold: the call is made when it is subscribed to (once).
   *
   * <p>It publishes the method's reply, a value message ({@code docs/PROTOCOL.md}, "Values":
   * field 1 holds the value, absent for null), then completes; for a server stream ({@code
   * Flow.Publisher} or {@code Stream} result), one value message per element, produced no faster
   * than they are requested; cancelling the subscription cancels the stream. A call that fails
   * ends with its {@link io.rpcx.core.RpcxException}: {@link io.rpcx.core.NotFoundException} for
   * an unknown service or method, {@link io.rpcx.core.RemoteFailureException} naming the class of
   * what the implementation threw, and so on. Methods with a stream argument (client and
   * bidirectional streams) are refused with {@link io.rpcx.core.BadRequestException}.
   *
   * @param metadata the call's metadata (credentials, trace context), at most the server's {@code
   *     maxMetadataBytes}
   * @param timeout how long the caller waits, from now, or {@code null} for no deadline
   * @param arguments the method's request message ({@code docs/GRPC.md}, "Messages": field {@code
   *     i + 1} holds argument {@code i}), asked for where the call runs (its worker, or the
   *     network thread for a method that never blocks) once the interceptors let the call through; it may throw {@link io.rpcx.core.BadRequestException}
   *     naming what is wrong with the request, which the call then ends with
   */
  Flow.Publisher<byte[]> call(
      String service,
      String method,
      Map<String, String> metadata,
      Duration timeout,
      Supplier<byte[]> arguments);
}
