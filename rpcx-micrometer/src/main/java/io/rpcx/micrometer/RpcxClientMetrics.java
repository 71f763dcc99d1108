package io.rpcx.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.rpcx.client.ClientStats;
import io.rpcx.client.RpcxClient;
import java.util.List;
import java.util.Objects;

/**
 * Gauges and counters of a client, read from its {@link ClientStats} when scraped: {@code
 * rpcx.client.calls.active}, {@code rpcx.client.connections.open}, {@code rpcx.client.retries} and
 * {@code rpcx.client.ejections}. The gauges hold the stats strongly (Micrometer holds state objects
 * weakly and nothing else holds these), the counters read the same.
 */
public final class RpcxClientMetrics implements MeterBinder {
  private final ClientStats stats;
  private final List<Tag> tags;

  /** The metrics of {@code client}. */
  public RpcxClientMetrics(RpcxClient client) {
    this(client, List.of());
  }

  /** The metrics of {@code client}, each with {@code tags} (a client name, say). */
  public RpcxClientMetrics(RpcxClient client, Iterable<Tag> tags) {
    this.stats = Objects.requireNonNull(client, "client").stats();
    this.tags = RpcTags.tagList(tags);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder("rpcx.client.calls.active", stats, ClientStats::callsInFlight)
        .strongReference(true)
        .description("Calls sent and not yet answered")
        .tags(tags)
        .register(registry);
    Gauge.builder("rpcx.client.connections.open", stats, ClientStats::openConnections)
        .strongReference(true)
        .description("Connections to servers open now")
        .tags(tags)
        .register(registry);
    FunctionCounter.builder("rpcx.client.retries", stats, ClientStats::retries)
        .description("Attempts made again after a failure")
        .tags(tags)
        .register(registry);
    FunctionCounter.builder("rpcx.client.ejections", stats, ClientStats::ejections)
        .description("Times a server was taken out of rotation")
        .tags(tags)
        .register(registry);
  }
}
