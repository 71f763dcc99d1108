package io.rpcx.testsuite.readme;

import io.rpcx.client.DnsDiscovery;
import io.rpcx.client.RpcxClient;
import io.rpcx.kubernetes.KubernetesDiscovery;
import io.rpcx.registry.zookeeper.ZooKeeperRegistry;
import io.rpcx.server.RpcxServer;
import io.rpcx.testsuite.readme.ReadmeSnippets.OrderServiceImpl;
import java.time.Duration;

/**
 * The Java snippets of docs/CLUSTER.md, each line as the page has it, in code that compiles
 * ({@code ReadmeSnippetsTest} checks that every line is here, in order). Never run: the
 * addresses are examples.
 */
final class ClusterSnippets {
  private ClusterSnippets() {}

  static void zooKeeper() {
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
  }

  static void kubernetes() {
    KubernetesDiscovery kubernetes = KubernetesDiscovery.builder()
        .everyService("rpcx-example-server")   // the Kubernetes Service of every RPCX service
        .service("orders", "orders-server")    // or one per RPCX service
        .portName("rpcx")                      // the Service port RPCX servers listen on
        .build();                              // namespace and token: the pod's own service account
    RpcxClient client = RpcxClient.builder().discovery(kubernetes).build();
  }

  static void dns() {
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
  }

  static void maxConnectionAge() {
    RpcxServer server = RpcxServer.builder()
        .service(new OrderServiceImpl())
        .maxConnectionAge(Duration.ofMinutes(5), Duration.ofSeconds(30))  // age ±10%, then grace
        .build().start();
  }
}
