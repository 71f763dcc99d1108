package io.rpcx.testsuite.docs;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.client.DnsDiscovery;
import io.rpcx.client.RpcxClient;
import io.rpcx.kubernetes.KubernetesDiscovery;
import io.rpcx.registry.zookeeper.ZooKeeperRegistry;
import io.rpcx.server.RpcxServer;
import java.time.Duration;

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

  // "Kubernetes"

  static RpcxClient kubernetes() {
    KubernetesDiscovery kubernetes = KubernetesDiscovery.builder()
        .everyService("rpcx-example-server")   // the Kubernetes Service of every RPCX service
        .service("orders", "orders-server")    // or one per RPCX service
        .portName("rpcx")                      // the Service port RPCX servers listen on
        .build();                              // namespace and token: the pod's own service account
    RpcxClient client = RpcxClient.builder().discovery(kubernetes).build();
    return client;
  }

  // "DNS"

  static RpcxClient dns() {
    DnsDiscovery dns = DnsDiscovery.of("dns:///rpcx-example-server.shop.svc.cluster.local:9000");
    RpcxClient client = RpcxClient.builder().discovery(dns).build();   // close dns after the client

    DnsDiscovery perService = DnsDiscovery.builder()
        .service("orders", "dns:///orders.shop.svc.cluster.local:9000")        // A/AAAA, port 9000
        .service("users", "dns:///_rpcx._tcp.users.shop.svc.cluster.local")    // SRV: hosts and ports
        .everyService("dns://10.0.0.10:53/rpcx.internal:9000")                 // a name server of its own
        .nameServer("10.0.0.10", 53)         // for targets without one; default /etc/resolv.conf's
        .refreshInterval(Duration.ofSeconds(30))     // default 30 s
        .minRefreshInterval(Duration.ofSeconds(1))   // default 1 s
        .build();
    perService.close();
    return client;
  }

  // "Rebalancing after scale-up: maximum connection age"

  static RpcxServer maxConnectionAge() {
    RpcxServer server = RpcxServer.builder()
        .service(new OrderServiceImpl())
        .maxConnectionAge(Duration.ofMinutes(5), Duration.ofSeconds(30))  // age ±10%, then grace
        .build().start();
    return server;
  }
}
