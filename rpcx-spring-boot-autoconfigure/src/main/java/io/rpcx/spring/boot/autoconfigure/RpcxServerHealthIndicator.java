package io.rpcx.spring.boot.autoconfigure;

import io.rpcx.server.RpcxServer;
import io.rpcx.server.ServerStats;
import java.util.Locale;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The server's health: UP while it serves, OUT_OF_SERVICE while it drains for shutdown (so that a
 * load balancer stops sending it traffic), DOWN before it started and once it stopped; with its
 * port, services, connections and calls.
 */
final class RpcxServerHealthIndicator implements HealthIndicator {
  private final RpcxServer server;
  private final RpcxServerLifecycle lifecycle;

  RpcxServerHealthIndicator(RpcxServer server, RpcxServerLifecycle lifecycle) {
    this.server = server;
    this.lifecycle = lifecycle;
  }

  @Override
  public Health health() {
    RpcxServerLifecycle.State state = lifecycle.state();
    Health.Builder health =
        switch (state) {
          case SERVING -> Health.up();
          case DRAINING -> Health.outOfService();
          case NEW, STOPPED -> Health.down();
        };
    health.withDetail("state", state.name().toLowerCase(Locale.ROOT));
    health.withDetail("services", server.services());
    if (state == RpcxServerLifecycle.State.SERVING || state == RpcxServerLifecycle.State.DRAINING) {
      ServerStats stats = server.stats();
      health
          .withDetail("port", server.port())
          .withDetail("connections", stats.openConnections())
          .withDetail("callsInFlight", stats.callsInFlight())
          .withDetail("callsQueued", stats.queuedCalls());
    }
    return health.build();
  }
}
