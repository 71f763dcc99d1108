package io.rpcx.testsuite.docs;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.client.RpcxClient;
import io.rpcx.registry.zookeeper.ZooKeeperRegistry;
import io.rpcx.server.RpcxServer;

/**
 * The Java snippets of docs/CLUSTER.md, each line as the doc has it, in code that compiles
 * ({@link DocSnippetsTest}). Never run: the doc's addresses are examples.
 */
final class ClusterSnippets {
  private ClusterSnippets() {}

  /** The service the snippets publish. */
  @RPCXClient(name = "orders")
  public interface OrderService {
    String find(long id);
  }

  @RPCXServer(name = "orders")
  public static class OrderServiceImpl implements OrderService {
    @Override
    public String find(long id) {
      return "order " + id;
    }
  }

  // "ZooKeeper"

  static RpcxClient zooKeeper() {
    ZooKeeperRegistry zooKeeper = ZooKeeperRegistry.builder()
        .connectString("zk1:2181,zk2:2181,zk3:2181")   // or .client(yourCuratorFramework)
        .build();

    // server: registers every published service once it listens, withdraws them first when it stops
    RpcxServer server = RpcxServer.builder()
        .service(new OrderServiceImpl())
        .registrar(zooKeeper)
        .advertise("10.0.0.7")            // the address clients should use; see below for the default
        .build().start();

    // client: finds the servers of each service and follows every change
    RpcxClient client = RpcxClient.builder().discovery(zooKeeper).build();
    server.stop();
    return client;
  }
}
