/**
 * The seam through which a server serves HTTP beside RPCX and gRPC: an {@link
 * io.rpcx.server.http.HttpService} installed with {@code RpcxServer.Builder.http(...)} (module
 * {@code rpcx-http} has HTTP/JSON, OpenAPI and a service console) receives each HTTP request the
 * server reads as an {@link io.rpcx.server.http.HttpExchange}, answers it, and calls the published
 * methods through the server's own dispatcher, interceptors, limits and deadlines ({@link
 * io.rpcx.server.http.HttpExchange#call}).
 */
package io.rpcx.server.http;
