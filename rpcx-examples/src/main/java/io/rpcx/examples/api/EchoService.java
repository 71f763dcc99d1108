package io.rpcx.examples.api;

import io.rpcx.annotation.RPCXClient;
import java.util.concurrent.CompletableFuture;

/** A string echo: the smallest possible remote call. */
@RPCXClient(name = "echo", address = "127.0.0.1", port = 9000)
public interface EchoService {

  String echo(String text);

  /** The same call, asynchronous: returns at once, completes when the reply arrives. */
  CompletableFuture<String> echoAsync(String text);
}
