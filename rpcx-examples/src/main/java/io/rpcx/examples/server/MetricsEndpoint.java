package io.rpcx.examples.server;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/** Serves a Prometheus registry's scrape at {@code /metrics}, with the JDK's HTTP server. */
final class MetricsEndpoint implements AutoCloseable {
  private final HttpServer http;

  private MetricsEndpoint(HttpServer http) {
    this.http = http;
  }

  /** Listens on {@code port} (0 picks a free one) of {@code bind} ({@code null}: every interface). */
  static MetricsEndpoint start(String bind, int port, PrometheusMeterRegistry registry) {
    HttpServer http;
    try {
      http = HttpServer.create(
          bind == null ? new InetSocketAddress(port) : new InetSocketAddress(bind, port), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serve metrics on port " + port, e);
    }
    http.createContext(
        "/metrics",
        exchange -> {
          try (exchange) {
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange
                .getResponseHeaders()
                .set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(body);
            }
          }
        });
    http.start();
    return new MetricsEndpoint(http);
  }

  int port() {
    return http.getAddress().getPort();
  }

  @Override
  public void close() {
    http.stop(0);
  }
}
