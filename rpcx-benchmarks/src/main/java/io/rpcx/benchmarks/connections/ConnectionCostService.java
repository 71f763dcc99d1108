package io.rpcx.benchmarks.connections;

import io.rpcx.annotation.RPCXClient;
import java.util.concurrent.CompletableFuture;

/**
 * The service the connection-cost tool calls: an echo, and two calls that stay in flight until the
 * server's operator releases them, one without a thread ({@link #hold}) and one blocking a worker
 * thread ({@link #block}).
 */
@RPCXClient(name = "conncost")
public interface ConnectionCostService {

  /** Returns {@code text}. */
  String echo(String text);

  /** Returns {@code text} once released; holds no thread meanwhile. */
  CompletableFuture<String> hold(String text);

  /** Returns {@code text} once released, blocking its worker thread meanwhile. */
  String block(String text);
}
