package io.rpcx.http.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rpcx.core.StatusCode;
import io.rpcx.server.http.HttpExchange;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.Flow;

/**
 * Answers an HTTP/JSON call of a server stream as newline-delimited JSON: one line {@code
 * {"result": element}} per element, and, if the stream fails after it started, a last line {@code
 * {"error": {"status": ..., "message": ...}}}. A call that fails before its first element is
 * answered as any failed call (its HTTP status and error body); one that ends without any, 200
 * with no lines.
 *
 * <p>It sits between the call's publisher (elements as value messages) and the body the server
 * writes: the server's demand, one more line per line written to the network, is passed on to
 * the call as its credit, so a slow client holds the implementation's publisher back. Thread-safe:
 * its state is under its monitor; the signals it passes on are serialized by the call's.
 */
final class JsonLines implements Flow.Subscriber<byte[]>, Flow.Publisher<byte[]>, Flow.Subscription {
  static final Map<String, String> NDJSON = Map.of("content-type", "application/x-ndjson");

  private final HttpExchange exchange;
  private final ServiceJson mapping;
  private final String elementType;
  private final String method;

  private Flow.Subscription call;
  private Flow.Subscriber<? super byte[]> body;
  /** The first line, held from the first element until the body asks for it. */
  private byte[] first;
  /** The call's end (a last line, or nothing) before the body took the first line. */
  private boolean ended;
  private byte[] lastLine;

  JsonLines(HttpExchange exchange, ServiceJson mapping, String elementType, String method) {
    this.exchange = exchange;
    this.mapping = mapping;
    this.elementType = elementType;
    this.method = method;
  }

  // From the call.

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    call = subscription;
    subscription.request(1); // the first element decides the answer's status
  }

  @Override
  public void onNext(byte[] element) {
    byte[] line = line(element);
    synchronized (this) {
      if (body != null) {
        body.onNext(line);
        return;
      }
      first = line;
    }
    exchange.respond(200, NDJSON, this);
  }

  @Override
  public void onError(Throwable failure) {
    synchronized (this) {
      if (first == null && body == null) {
        HttpErrors.respond(exchange, failure);
        return;
      }
      ObjectNode error = HttpErrors.JSON.createObjectNode();
      error.set("error", HttpErrors.body(failure));
      end(lineOf(error));
    }
  }

  @Override
  public void onComplete() {
    synchronized (this) {
      if (first == null && body == null) {
        exchange.respond(200, NDJSON, new byte[0]);
        return;
      }
      end(null);
    }
  }

  /** The call ended, after {@code last} (a line, or null): passed on once the first line is. */
  private void end(byte[] last) {
    if (body != null && first == null) {
      if (last != null) {
        body.onNext(last);
      }
      body.onComplete();
    } else {
      ended = true;
      lastLine = last;
    }
  }

  private byte[] line(byte[] element) {
    ObjectNode line = HttpErrors.JSON.createObjectNode();
    try {
      line.set("result", mapping.decode(element, elementType));
    } catch (IOException e) {
      line.set(
          "error",
          HttpErrors.body(
              StatusCode.INTERNAL,
              method + " ran, but an element of its stream cannot be read as " + elementType
                  + ": " + e.getMessage(),
              ""));
    }
    return lineOf(line);
  }

  private static byte[] lineOf(JsonNode node) {
    byte[] json = HttpErrors.bytes(node);
    byte[] line = java.util.Arrays.copyOf(json, json.length + 1);
    line[json.length] = '\n';
    return line;
  }

  // To the body the server writes.

  @Override
  public void subscribe(Flow.Subscriber<? super byte[]> subscriber) {
    synchronized (this) {
      body = subscriber;
    }
    subscriber.onSubscribe(this);
  }

  @Override
  public void request(long n) {
    long more = n;
    synchronized (this) {
      if (first != null) {
        byte[] line = first;
        first = null;
        body.onNext(line);
        more--;
        if (ended) {
          if (lastLine != null) {
            body.onNext(lastLine); // an error line may exceed the demand by one: it ends the body
          }
          body.onComplete();
          return;
        }
      }
    }
    if (more > 0) {
      call.request(more);
    }
  }

  @Override
  public void cancel() {
    call.cancel();
  }
}
