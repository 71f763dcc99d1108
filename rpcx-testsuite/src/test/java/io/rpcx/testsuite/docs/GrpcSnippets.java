package io.rpcx.testsuite.docs;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.discovery.ServiceEndpoint;
import io.rpcx.core.discovery.StaticDiscovery;
import io.rpcx.server.RpcxServer;
import java.util.Map;

/**
 * The Java snippets of docs/GRPC.md, each line as the doc has it, in code that compiles ({@link
 * DocSnippetsTest}). Never run: the doc's addresses are examples.
 */
final class GrpcSnippets {
  private GrpcSnippets() {}

  @RPCXClient(name = "orders")
  public interface OrderService {
    String status(long order);
  }

  @RPCXServer(name = "orders")
  public static class OrderServiceImpl implements OrderService {
    @Override
    public String status(long order) {
      return "shipped";
    }
  }

  @RPCXClient(name = "users")
  public interface UserService {
    String name(long user);
  }

  // The page's opening.

  static RpcxServer server() {
    RpcxServer server = RpcxServer.builder()
        .port(9000)
        .service(new OrderServiceImpl())   // an @RPCXServer class, nothing gRPC-specific
        .build()
        .start();                          // RPCX and gRPC on :9000
    return server;
  }

  // "Calling gRPC servers from RPCX"

  static OrderService targets() {
    RpcxClient client = RpcxClient.builder()
        .targets(OrderService.class, "grpc://orders-go.internal:50051")   // a gRPC server
        .targets(UserService.class, "users.internal:9000")                // an RPCX server
        .build();
    OrderService orders = client.create(OrderService.class);             // the same interface
    return orders;
  }

  static void discovery() {
    StaticDiscovery discovery = StaticDiscovery.builder()
        .service("orders", "grpc://10.0.0.7:50051", "10.0.0.8:9000")   // one gRPC, one RPCX server
        .build();
    ServiceEndpoint registered =
        ServiceEndpoint.of("10.0.0.9", 50051, Map.of(ServiceEndpoint.PROTOCOL, ServiceEndpoint.GRPC));
  }
}
