package io.rpcx.testsuite.docs;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.http.RpcxHttp;
import io.rpcx.server.RpcxServer;

/**
 * The Java snippets of docs/HTTP.md, each line as the doc has it, in code that compiles ({@link
 * DocSnippetsTest}). Never run: the doc's port is an example.
 */
final class HttpSnippets {
  private HttpSnippets() {}

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

  // The page's opening.

  static RpcxServer server() {
    RpcxServer server = RpcxServer.builder()
        .port(9000)
        .service(new OrderServiceImpl())
        .reflection(true)                       // the document and the console show what it shows
        .http(RpcxHttp.builder()                // HTTP/JSON calls
            .openApi(true)                      // GET /openapi.json
            .console(true)                      // GET /
            .build())
        .build()
        .start();
    return server;
  }
}
