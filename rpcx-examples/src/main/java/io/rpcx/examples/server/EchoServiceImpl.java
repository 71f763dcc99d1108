package io.rpcx.examples.server;

import io.rpcx.annotation.RPCXServer;
import io.rpcx.examples.api.EchoService;
import java.util.concurrent.CompletableFuture;

/** Returns what it is given. */
@RPCXServer(name = "echo")
public class EchoServiceImpl implements EchoService {

  @Override
  public String echo(String text) {
    return text;
  }

  @Override
  public CompletableFuture<String> echoAsync(String text) {
    return CompletableFuture.completedFuture(text);
  }
}
