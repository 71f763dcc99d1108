package io.rpcx.examples.server;

import io.rpcx.server.RpcxServer;

/**
 * Runs the example services: {@code java -jar rpcx-example-server.jar [--port N]} (default 9000).
 * Services are found by scanning this package, which works from the runnable jar too.
 */
public final class ExampleServer {
  private ExampleServer() {}

  public static void main(String[] args) throws InterruptedException {
    int port = 9000;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--port") && i + 1 < args.length) {
        port = Integer.parseInt(args[++i]);
      } else {
        System.err.println("usage: java -jar rpcx-example-server.jar [--port N]");
        System.exit(2);
      }
    }
    RpcxServer server =
        RpcxServer.builder().port(port).scan("io.rpcx.examples.server").build().start();
    Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "rpcx-example-shutdown"));
    System.out.println("RPCX example server ready on port " + server.port()
        + " with services " + server.services());
    server.awaitTermination();
  }
}
