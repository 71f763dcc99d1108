package io.rpcx.http.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.rpcx.core.StatusCode;
import io.rpcx.server.http.HttpExchange;
import java.io.IOException;
import java.util.concurrent.Flow;

/**
 * Answers an HTTP/JSON call of a method with one reply: subscribes to the call, and answers 200
 * with the reply as JSON, or the failure ({@link HttpErrors}). Runs where the call's reply
 * arrives: the call's worker, off the network threads.
 */
final class JsonReply implements Flow.Subscriber<byte[]> {
  private final HttpExchange exchange;
  private final ServiceJson mapping;
  private final String resultType;
  private final String method;

  JsonReply(HttpExchange exchange, ServiceJson mapping, String resultType, String method) {
    this.exchange = exchange;
    this.mapping = mapping;
    this.resultType = resultType;
    this.method = method;
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    subscription.request(1);
  }

  @Override
  public void onNext(byte[] reply) {
    JsonNode value;
    try {
      value = mapping.decode(reply, resultType);
    } catch (IOException e) {
      HttpErrors.respond(exchange, 500, StatusCode.INTERNAL,
          method + " ran, but its result cannot be read as " + resultType + ": " + e.getMessage());
      return;
    }
    exchange.respond(200, HttpErrors.JSON_TYPE, HttpErrors.bytes(value));
  }

  @Override
  public void onError(Throwable failure) {
    HttpErrors.respond(exchange, failure);
  }

  @Override
  public void onComplete() {}
}
