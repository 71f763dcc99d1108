package io.rpcx.core.discovery;

/**
 * Where a server announces that it publishes a service, so that clients using the matching {@link
 * ServiceDiscovery} find it. {@code rpcx-registry-zookeeper} implements both.
 *
 * <p>Implementations are thread-safe. A registration lasts until it is closed or the server's
 * process ends (a registry entry is tied to the server's session, so a crashed server disappears by
 * itself once the registry notices).
 *
 * <pre>{@code
 * RpcxServer server = RpcxServer.builder().service(new OrderServiceImpl())
 *     .registrar(registry).advertise("10.0.0.7").build().start();
 * }</pre>
 */
public interface ServiceRegistrar {

  /**
   * Announces that {@code endpoint} serves {@code service}. Returns once the announcement is
   * made or on its way; a registry that is not reachable at the moment keeps trying in the
   * background.
   */
  Registration register(String service, ServiceEndpoint endpoint);

  /** A short description for messages and logs. */
  String describe();

  /** An announcement; closing it withdraws it. */
  interface Registration extends AutoCloseable {
    @Override
    void close();
  }
}
