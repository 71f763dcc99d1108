package io.rpcx.spring.boot.autoconfigure;

import io.rpcx.http.RpcxHttp;
import io.rpcx.server.RpcxServer;

/**
 * Applies the {@code rpcx.server.http.*} properties to a server builder. The only class of the
 * starter that names rpcx-http, an optional dependency: {@link ServerProperties} loads it only
 * once it found that module on the class path.
 */
final class HttpProperties {
  /** The class whose presence says rpcx-http is on the class path. */
  static final String RPCX_HTTP = "io.rpcx.http.RpcxHttp";

  private HttpProperties() {}

  static void applyTo(
      RpcxProperties.ServerHttp http, PropertyTarget target, RpcxServer.Builder builder) {
    RpcxHttp.Builder service =
        RpcxHttp.builder().openApi(http.isOpenApi()).console(http.isConsole());
    target.set("http.console-path", http.getConsolePath(), service::consolePath);
    if (http.getMaxRequestBytes() != null) {
      target.set(
          "http.max-request-bytes",
          http.getMaxRequestBytes(),
          target.bytes("http.max-request-bytes", http.getMaxRequestBytes()),
          service::maxRequestBytes);
    }
    target.set("http.port", http.getPort(), builder::httpPort);
    builder.http(service.build());
  }
}
