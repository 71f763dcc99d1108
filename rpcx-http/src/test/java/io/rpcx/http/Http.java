package io.rpcx.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A test's HTTP client of one server: JSON requests with the JDK's client. */
final class Http {
  private final HttpClient client;
  private final String base;

  Http(HttpClient client, String base) {
    this.client = client;
    this.base = base;
  }

  /** A client of {@code http://127.0.0.1:port} over HTTP/1.1. */
  static Http of(int port) {
    return new Http(
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build(),
        "http://127.0.0.1:" + port);
  }

  HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(20));
  }

  /** {@code POST path} with {@code json} as its body, and these headers (name, value, ...). */
  HttpResponse<String> post(String path, String json, String... headers) {
    HttpRequest.Builder request =
        request(path)
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json));
    for (int i = 0; i < headers.length; i += 2) {
      request.setHeader(headers[i], headers[i + 1]);
    }
    return send(request.build());
  }

  HttpResponse<String> get(String path, String... headers) {
    HttpRequest.Builder request = request(path).GET();
    for (int i = 0; i < headers.length; i += 2) {
      request.setHeader(headers[i], headers[i + 1]);
    }
    return send(request.build());
  }

  HttpResponse<String> send(HttpRequest request) {
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> body) {
    try {
      return client.send(request, body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
