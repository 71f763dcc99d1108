package com.example.orders;

import io.rpcx.client.RpcxClient;
import io.rpcx.server.RpcxServer;

/** Starts a server on 127.0.0.1 (a free port), calls it once, and exits 0 if the reply is right. */
public final class CallOnce {
  public static void main(String[] args) {
    try (RpcxServer server =
            RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(new Greeter.Impl()).build().start();
        RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      String reply = client.create(Greeter.class).greet("consumer");
      System.out.println("reply: " + reply);
      if (!reply.equals("Hello, consumer")) {
        System.exit(1);
      }
    }
  }
}
