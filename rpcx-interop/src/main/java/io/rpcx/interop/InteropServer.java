package io.rpcx.interop;

import io.rpcx.server.RpcxServer;

/**
 * Serves {@link InteropService} on a port, for peers in other languages: {@code java -cp ...
 * io.rpcx.interop.InteropServer [port]} prints the port it listens on, then serves until stopped.
 */
public final class InteropServer {
  private InteropServer() {}

  /** The server of {@link InteropServiceImpl} on {@code port} (0: any free one), not started. */
  public static RpcxServer.Builder builder(int port) {
    return builder(port, new InteropServiceImpl());
  }

  /** The server of {@code implementation} on {@code port} (0: any free one), not started. */
  public static RpcxServer.Builder builder(int port, InteropServiceImpl implementation) {
    return RpcxServer.builder().bindAddress("127.0.0.1").port(port).service(implementation);
  }

  /** Starts the server on the port given as the first argument (default 0) and prints it. */
  public static void main(String[] args) throws InterruptedException {
    RpcxServer server = builder(args.length > 0 ? Integer.parseInt(args[0]) : 0).build().start();
    Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
    System.out.println(server.port());
    server.awaitTermination();
  }
}
