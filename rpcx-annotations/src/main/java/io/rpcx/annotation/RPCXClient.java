package io.rpcx.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an interface as the client view of a remote RPCX service.
 *
 * <p>{@code RpcxClient.create(MyService.class)} turns an interface annotated with this into a proxy
 * whose abstract methods are remote calls. The annotation carries the remote service's published
 * name (the paper's <i>RemoteServerName</i>) and a default address (<i>RemoteServerAddress</i>) and
 * port (<i>RemoteServerDomain</i>). The address and port are defaults only: the client builder can
 * override them, so the same interface serves in development and in production.
 *
 * <pre>{@code
 * @RPCXClient(name = "orders", address = "127.0.0.1", port = 9000)
 * public interface OrderService {
 *   @Method("sendStr") String echo(String text);
 * }
 * }</pre>
 *
 * <p>Each abstract method is published under its Java name unless it carries {@link Method}.
 * Methods may return a value (the caller blocks until the reply or the timeout) or a {@code
 * java.util.concurrent.CompletableFuture} (the call is asynchronous).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface RPCXClient {

  /** The published name of the remote service; it must match the server's {@link RPCXServer#name()}. */
  String name();

  /**
   * Default host name or IP address of the server; empty means it must be given to the client
   * builder. {@code grpc://host} names a gRPC server that implements the service's exported
   * definitions (docs/GRPC.md), which the client then calls over gRPC.
   */
  String address() default "";

  /** Default TCP port of the server; 0 means it must be given to the client builder. */
  int port() default 0;

  /**
   * Timeout in milliseconds for every method of this interface that does not set its own; 0 means
   * the client's default timeout.
   */
  long timeoutMillis() default 0;
}
