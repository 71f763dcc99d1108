package io.rpcx.testsuite;

import io.rpcx.annotation.Method;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import java.util.concurrent.CompletableFuture;

/** The simplest service: returns what it is given. */
@RPCXClient(name = "echo")
public interface EchoService {

  String echo(String text);

  /** Published as "shout": the Java name and the published name differ. */
  @Method("shout")
  String upperCase(String text);

  CompletableFuture<String> echoAsync(String text);

  /** Runs locally: never reaches the network. */
  default String twice(String text) {
    return text + text;
  }

  /** The implementation published by test servers. */
  @RPCXServer(name = "echo")
  final class Impl implements EchoService {
    @Override
    public String echo(String text) {
      return text;
    }

    @Override
    public String upperCase(String text) {
      return text.toUpperCase(java.util.Locale.ROOT);
    }

    @Override
    public CompletableFuture<String> echoAsync(String text) {
      return CompletableFuture.completedFuture(text);
    }
  }
}
