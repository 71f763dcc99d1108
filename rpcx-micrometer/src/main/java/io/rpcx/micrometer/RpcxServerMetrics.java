package io.rpcx.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.rpcx.server.RpcxServer;
import io.rpcx.server.ServerStats;
import java.util.List;
import java.util.Objects;

/**
 * Gauges and counters of a server, read from its {@link ServerStats} when scraped: {@code
 * rpcx.server.connections.open}, {@code rpcx.server.calls.active}, {@code rpcx.server.calls.queued}
 * and {@code rpcx.server.calls.refused}. The gauges hold the stats strongly (Micrometer holds state
 * objects weakly and nothing else holds these), the counters read the same.
 */
public final class RpcxServerMetrics implements MeterBinder {
  private final ServerStats stats;
  private final List<Tag> tags;

  /** The metrics of {@code server}. */
  public RpcxServerMetrics(RpcxServer server) {
    this(server, List.of());
  }

  /** The metrics of {@code server}, each with {@code tags}. */
  public RpcxServerMetrics(RpcxServer server, Iterable<Tag> tags) {
    this.stats = Objects.requireNonNull(server, "server").stats();
    this.tags = RpcTags.tagList(tags);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder("rpcx.server.connections.open", stats, ServerStats::openConnections)
        .strongReference(true)
        .description("Client connections open now")
        .tags(tags)
        .register(registry);
    Gauge.builder(
            "rpcx.server.connections.handshaking", stats, ServerStats::handshakingConnections)
        .strongReference(true)
        .description("Client connections accepted and not yet through their handshake")
        .tags(tags)
        .register(registry);
    FunctionCounter.builder(
            "rpcx.server.connections.refused", stats, ServerStats::refusedConnections)
        .description("Connections refused: too many in their handshake, or over the limit")
        .tags(tags)
        .register(registry);
    Gauge.builder("rpcx.server.calls.active", stats, ServerStats::callsInFlight)
        .strongReference(true)
        .description("Calls accepted and not yet answered")
        .tags(tags)
        .register(registry);
    Gauge.builder("rpcx.server.calls.queued", stats, ServerStats::queuedCalls)
        .strongReference(true)
        .description("Calls waiting for a worker thread")
        .tags(tags)
        .register(registry);
    FunctionCounter.builder("rpcx.server.calls.refused", stats, ServerStats::refusedCalls)
        .description("Calls refused before they ran")
        .tags(tags)
        .register(registry);
  }
}
