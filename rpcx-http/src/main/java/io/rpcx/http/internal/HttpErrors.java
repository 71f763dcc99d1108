package io.rpcx.http.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rpcx.core.RemoteFailureException;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.server.http.HttpExchange;
import java.util.Map;

/**
 * How the HTTP side answers a failure: an HTTP status that fits the RPCX status code, and a JSON
 * body {@code {"status": "NOT_FOUND", "message": "...", "exceptionClass": "..."}} (the class only
 * when the implementation threw). Stateless.
 */
final class HttpErrors {
  static final ObjectMapper JSON = new ObjectMapper();
  static final Map<String, String> JSON_TYPE = Map.of("content-type", "application/json");

  private HttpErrors() {}

  /** The HTTP status of a call that ended with {@code status}. */
  static int httpStatus(StatusCode status) {
    return switch (status) {
      case OK -> 200;
      case BAD_REQUEST -> 400;
      case UNAUTHENTICATED -> 401;
      case NOT_FOUND -> 404;
      case RESOURCE_EXHAUSTED -> 429;
      case CANCELLED -> 499; // the client closed the request (nginx's code); it never sees it
      case REMOTE_FAILURE, INTERNAL -> 500;
      case UNAVAILABLE -> 503;
      case TIMEOUT -> 504;
    };
  }

  /** The JSON body of an error. */
  static ObjectNode body(StatusCode status, String message, String exceptionClass) {
    ObjectNode body = JSON.createObjectNode();
    body.put("status", status.name());
    body.put("message", message == null ? "" : message);
    if (exceptionClass != null && !exceptionClass.isEmpty()) {
      body.put("exceptionClass", exceptionClass);
    }
    return body;
  }

  /** The JSON body of a call's failure. */
  static ObjectNode body(Throwable failure) {
    if (failure instanceof RpcxException rpcx) {
      return body(
          rpcx.status(),
          rpcx.getMessage(),
          rpcx instanceof RemoteFailureException remote ? remote.remoteClassName() : "");
    }
    return body(StatusCode.INTERNAL, String.valueOf(failure), "");
  }

  /** The status of a call's failure. */
  static StatusCode status(Throwable failure) {
    return failure instanceof RpcxException rpcx ? rpcx.status() : StatusCode.INTERNAL;
  }

  /** Answers {@code exchange} with the failure of its call. */
  static void respond(HttpExchange exchange, Throwable failure) {
    respond(exchange, httpStatus(status(failure)), body(failure));
  }

  /** Answers {@code exchange} with {@code httpStatus} and an error saying {@code message}. */
  static void respond(HttpExchange exchange, int httpStatus, StatusCode status, String message) {
    respond(exchange, httpStatus, body(status, message, ""));
  }

  private static void respond(HttpExchange exchange, int httpStatus, ObjectNode body) {
    Map<String, String> headers =
        httpStatus == 401
            ? Map.of("content-type", "application/json", "www-authenticate", "Bearer")
            : JSON_TYPE;
    exchange.respond(httpStatus, headers, bytes(body));
  }

  /** {@code node} as UTF-8 JSON. */
  static byte[] bytes(Object node) {
    try {
      return JSON.writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
    }
  }
}
