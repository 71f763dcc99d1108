package io.rpcx.server.http;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Answers the HTTP requests of one server, made by its {@link HttpService} when the server starts.
 * Must be thread-safe: requests of different connections arrive at once on different threads.
 */
public interface HttpHandler {

  /**
   * Answers {@code exchange}, a request read whole. Runs on a network thread, so it must not
   * block: work that takes time runs elsewhere, as the calls of {@link HttpExchange#call} do, and
   * the answer ({@link HttpExchange#respond}) may be given later from any thread. A handler that
   * throws has its request answered 500 and logged.
   */
  void handle(HttpExchange exchange);

  /**
   * Answers a request the server refused before reading it whole, with {@code status} and a
   * {@code problem} saying why: 413 when its body is over {@link HttpService#maxRequestBytes()},
   * 431 when its headers are too large, 414 when its request line is, 400 when it is not valid
   * HTTP. Its body is empty, and its connection closes once the answer is sent. By default a
   * plain-text answer of the problem.
   */
  default void refuse(HttpExchange exchange, int status, String problem) {
    exchange.respond(
        status,
        Map.of("content-type", "text/plain; charset=utf-8"),
        (problem + "\n").getBytes(StandardCharsets.UTF_8));
  }
}
