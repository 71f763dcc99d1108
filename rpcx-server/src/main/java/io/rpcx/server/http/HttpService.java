package io.rpcx.server.http;

import io.rpcx.core.reflection.ReflectionService;

/**
 * What serves the HTTP requests that reach an RPCX server beside its own protocol and gRPC: HTTP/1.1
 * requests, and HTTP/2 requests that are not gRPC (their {@code content-type} is not {@code
 * application/grpc}). Installed with {@code RpcxServer.Builder.http(service)}; a server has none
 * by default. The server reads HTTP with Netty's codecs, over TLS when it has TLS, reads each
 * request's body whole within {@link #maxRequestBytes()}, and hands each request to the {@link
 * HttpHandler} this service made when the server started.
 *
 * <p>Module {@code rpcx-http} is one: HTTP/JSON calls of every published method, an OpenAPI
 * document and a service console ({@code RpcxHttp}). Implementations are immutable and
 * thread-safe; one may serve several servers, each with a handler of its own.
 *
 * <pre>{@code
 * RpcxServer server = RpcxServer.builder()
 *     .service(new OrderServiceImpl())
 *     .http(RpcxHttp.builder().openApi(true).console(true).build())
 *     .build()
 *     .start();
 * }</pre>
 */
public interface HttpService {

  /**
   * The largest request body the server reads, in bytes, at least 1. A request announcing a
   * larger one, or sending it, is refused ({@link HttpHandler#refuse}, status 413) without being
   * read further, and its connection is closed after the answer.
   */
  int maxRequestBytes();

  /**
   * Makes the handler of a server that is starting, before it takes any request. {@code services}
   * describes what the server publishes, as its reflection service would (whether or not it
   * publishes that service); it lives as long as the server.
   *
   * @throws RuntimeException to fail the server's start, with a message naming the problem
   */
  HttpHandler start(ReflectionService services);
}
