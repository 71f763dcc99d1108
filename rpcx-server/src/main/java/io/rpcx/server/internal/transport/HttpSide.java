package io.rpcx.server.internal.transport;

import io.rpcx.server.http.HttpHandler;

/**
 * The server's HTTP side, where it has one: the handler its {@code HttpService} made at start, the
 * body limit, and the port it is served on ({@code -1}: the server's own port, beside RPCX and
 * gRPC; 0: a free one).
 */
public record HttpSide(HttpHandler handler, int maxRequestBytes, int port) {
  /** Whether HTTP is served on a port of its own. */
  public boolean ownPort() {
    return port >= 0;
  }
}
