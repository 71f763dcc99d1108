package io.rpcx.examples.zookeeper;

import java.io.File;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * A single ZooKeeper server on 127.0.0.1 with its data in a temporary directory, for trying the
 * examples as a cluster on one machine (Apache ZooKeeper itself, from its Maven Central jar; not
 * for production, where ZooKeeper runs as an ensemble of its own):
 *
 * <pre>
 * java -cp rpcx-example-server.jar io.rpcx.examples.zookeeper.LocalZooKeeper [--port N]
 * </pre>
 *
 * The port defaults to 2181 (0 picks a free one). Prints {@code ZooKeeper ready on
 * 127.0.0.1:PORT} and runs until killed.
 */
public final class LocalZooKeeper {
  private LocalZooKeeper() {}

  public static void main(String[] args) throws Exception {
    int port = 2181;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--port") && i + 1 < args.length) {
        port = Integer.parseInt(args[++i]);
      } else {
        System.err.println(
            "usage: java -cp rpcx-example-server.jar io.rpcx.examples.zookeeper.LocalZooKeeper"
                + " [--port N]");
        System.exit(2);
      }
    }
    System.setProperty("zookeeper.admin.enableServer", "false");
    File data = Files.createTempDirectory("rpcx-zookeeper").toFile();
    ZooKeeperServer server = new ZooKeeperServer(data, data, 2_000);
    ServerCnxnFactory connections =
        ServerCnxnFactory.createFactory(new InetSocketAddress("127.0.0.1", port), 100);
    try {
      connections.startup(server);
    } catch (Throwable e) {
      e.printStackTrace();
      System.exit(1);
    }
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  connections.shutdown();
                  server.shutdown();
                  deleteRecursively(data);
                },
                "zookeeper-shutdown"));
    System.out.println("ZooKeeper ready on 127.0.0.1:" + connections.getLocalPort());
    connections.join();
  }

  private static void deleteRecursively(File file) {
    File[] children = file.listFiles();
    if (children != null) {
      for (File child : children) {
        deleteRecursively(child);
      }
    }
    file.delete();
  }
}
