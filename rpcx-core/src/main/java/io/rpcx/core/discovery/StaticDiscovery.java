package io.rpcx.core.discovery;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A fixed list of endpoints per service, and optionally one list for every other service: the
 * built-in discovery, with nothing to install. Immutable and thread-safe.
 *
 * <pre>{@code
 * ServiceDiscovery discovery = StaticDiscovery.builder()
 *     .service("orders", "10.0.0.7:9000", "10.0.0.8:9000")
 *     .build();
 * }</pre>
 */
public final class StaticDiscovery implements ServiceDiscovery {
  private final Map<String, List<ServiceEndpoint>> services;
  private final List<ServiceEndpoint> others;

  private StaticDiscovery(Builder builder) {
    this.services = Map.copyOf(builder.services);
    this.others = builder.others;
  }

  /** The same endpoints for every service. */
  public static StaticDiscovery of(List<ServiceEndpoint> endpoints) {
    return builder().everyService(endpoints).build();
  }

  /** A builder of a static list. */
  public static Builder builder() {
    return new Builder();
  }

  /** The endpoints of {@code service}: its own list, else the list for every service, else none. */
  public List<ServiceEndpoint> endpoints(String service) {
    return services.getOrDefault(service, others);
  }

  /** Calls {@code listener} once, at once, with the service's endpoints. */
  @Override
  public Subscription subscribe(String service, Listener listener) {
    listener.onEndpoints(endpoints(service));
    return () -> {};
  }

  @Override
  public String describe() {
    return "static list";
  }

  @Override
  public String toString() {
    return "StaticDiscovery" + services + (others.isEmpty() ? "" : " others=" + others);
  }

  /** Builds a {@link StaticDiscovery}; not thread-safe. */
  public static final class Builder {
    private final Map<String, List<ServiceEndpoint>> services = new LinkedHashMap<>();
    private List<ServiceEndpoint> others = List.of();

    private Builder() {}

    /** The endpoints of {@code service}, each {@code host:port}. */
    public Builder service(String service, String... endpoints) {
      ServiceEndpoint[] parsed = new ServiceEndpoint[endpoints.length];
      for (int i = 0; i < endpoints.length; i++) {
        parsed[i] = ServiceEndpoint.parse(endpoints[i]);
      }
      return service(service, List.of(parsed));
    }

    /** The endpoints of {@code service}. */
    public Builder service(String service, List<ServiceEndpoint> endpoints) {
      Objects.requireNonNull(service, "service");
      services.put(service, List.copyOf(endpoints));
      return this;
    }

    /** The endpoints of every service not named with {@link #service}. */
    public Builder everyService(List<ServiceEndpoint> endpoints) {
      this.others = List.copyOf(endpoints);
      return this;
    }

    /** The list; the builder can be reused. */
    public StaticDiscovery build() {
      return new StaticDiscovery(this);
    }
  }
}
