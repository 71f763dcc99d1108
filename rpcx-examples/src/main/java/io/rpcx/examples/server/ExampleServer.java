package io.rpcx.examples.server;

import io.rpcx.registry.zookeeper.ZooKeeperRegistry;
import io.rpcx.server.RpcxServer;

/**
 * Runs the example services:
 *
 * <pre>
 * java -jar rpcx-example-server.jar [--port N] [--zookeeper HOST:PORT[,...] [--advertise HOST]]
 * </pre>
 *
 * The port defaults to 9000 (0 picks a free one). With {@code --zookeeper}, the server registers
 * its services there under the address {@code --advertise} (default: the first site-local address
 * of this machine) and withdraws them when it stops. Services are found by scanning this package,
 * which works from the runnable jar too.
 */
public final class ExampleServer {
  private ExampleServer() {}

  public static void main(String[] args) throws InterruptedException {
    int port = 9000;
    String zooKeeper = null;
    String advertise = null;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--port") && i + 1 < args.length) {
        port = Integer.parseInt(args[++i]);
      } else if (args[i].equals("--zookeeper") && i + 1 < args.length) {
        zooKeeper = args[++i];
      } else if (args[i].equals("--advertise") && i + 1 < args.length) {
        advertise = args[++i];
      } else {
        System.err.println(
            "usage: java -jar rpcx-example-server.jar [--port N]"
                + " [--zookeeper HOST:PORT[,...] [--advertise HOST]]");
        System.exit(2);
      }
    }
    RpcxServer.Builder builder = RpcxServer.builder().port(port).scan("io.rpcx.examples.server");
    ZooKeeperRegistry registry = null;
    if (zooKeeper != null) {
      registry = ZooKeeperRegistry.builder().connectString(zooKeeper).build();
      builder.registrar(registry);
      if (advertise != null) {
        builder.advertise(advertise);
      }
    }
    RpcxServer server = builder.build().start();
    ZooKeeperRegistry registryToClose = registry;
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.stop();
                  if (registryToClose != null) {
                    registryToClose.close();
                  }
                },
                "rpcx-example-shutdown"));
    System.out.println("RPCX example server ready on port " + server.port()
        + " with services " + server.services()
        + (registry != null ? ", registered in " + registry.describe() : ""));
    server.awaitTermination();
  }
}
