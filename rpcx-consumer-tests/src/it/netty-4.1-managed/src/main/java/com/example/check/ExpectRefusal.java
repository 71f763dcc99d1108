package com.example.check;

import io.rpcx.client.RpcxClient;
import io.rpcx.server.RpcxServer;

/**
 * Builds a server and a client; exits 0 if both refuse to start with exactly the message given as
 * the first argument, 1 otherwise.
 */
public final class ExpectRefusal {
  public static void main(String[] args) {
    String expected = args[0];
    int failures = 0;
    for (Runnable start :
        new Runnable[] {() -> RpcxServer.builder().build(), () -> RpcxClient.builder().build()}) {
      try {
        start.run();
        System.out.println("started, but should have refused");
        failures++;
      } catch (IllegalStateException e) {
        System.out.println("refused: " + e.getMessage());
        if (!e.getMessage().equals(expected)) {
          System.out.println("expected: " + expected);
          failures++;
        }
      }
    }
    System.exit(failures == 0 ? 0 : 1);
  }
}
