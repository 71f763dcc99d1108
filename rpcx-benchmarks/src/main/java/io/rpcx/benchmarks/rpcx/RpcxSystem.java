package io.rpcx.benchmarks.rpcx;

import io.rpcx.benchmarks.api.BenchmarkClient;
import io.rpcx.benchmarks.api.BenchmarkServer;
import io.rpcx.benchmarks.api.BenchmarkSystem;
import io.rpcx.benchmarks.api.Versions;
import io.rpcx.benchmarks.api.Workload;
import io.rpcx.benchmarks.model.Message;
import io.rpcx.benchmarks.model.OrderInfo;
import io.rpcx.client.RpcxClient;
import io.rpcx.micrometer.RpcxClientMeters;
import io.rpcx.micrometer.RpcxClientMetrics;
import io.rpcx.micrometer.RpcxClientObservations;
import io.rpcx.micrometer.RpcxServerMeters;
import io.rpcx.micrometer.RpcxServerMetrics;
import io.rpcx.micrometer.RpcxServerObservations;
import io.rpcx.server.RpcxServer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * RPCX itself: an {@link RpcxServer} on 127.0.0.1 at an ephemeral port publishing {@link
 * BenchServiceImpl}, and an {@link RpcxClient} proxy of {@link BenchService} shared by all threads,
 * with a 60 s call timeout like the other adapters and RPCX's defaults for everything else (Netty
 * transport, protobuf envelope, its own POJO codec).
 *
 * <p>Four variants: {@code rpcx} with the worker pool ({@link RpcxServer.Builder#workerPool()},
 * the default before Java 24, named so that it is the pool on every Java); {@code rpcx-direct}, whose server
 * runs implementation code on the event loop ({@link RpcxServer.Builder#directExecutor()}), as the
 * raw Netty echo does and as a user may choose for code that never blocks (the difference between
 * the two is the cost of handing each call to a worker thread and its reply back); and {@code
 * rpcx-virtual}, whose server runs each call on a virtual thread of its own ({@link
 * RpcxServer.Builder#virtualThreads()}, Java 21+); and {@code rpcx-nonblocking}, the
 * worker-pool server with an implementation annotated {@code @NonBlocking}, which runs on the event
 * loop as {@code rpcx-direct}'s does, but placed per method as a user's would be.
 *
 * <p>Five more measure what observing calls costs (see {@link Observability}), each RPCX with its
 * defaults and rpcx-micrometer on both sides: {@code rpcx-meters} (timers straight into the
 * registry), {@code rpcx-metrics} (through Micrometer Observation, as the Spring Boot starter wires
 * it), {@code rpcx-metrics-generic} (the same with Micrometer's own meter handler), {@code
 * rpcx-tracing} and {@code rpcx-tracing-unsampled}.
 */
public final class RpcxSystem implements BenchmarkSystem {
  /** Where the server runs implementation code. */
  private enum Dispatch {
    POOL("rpcx", "default settings, calls on the worker pool (workerPool)"),
    DIRECT("rpcx-direct", "implementation on the event loop (directExecutor)"),
    NON_BLOCKING(
        "rpcx-nonblocking",
        "implementation annotated @NonBlocking: on the event loop, the rest default (workerPool)"),
    VIRTUAL("rpcx-virtual", "a virtual thread per call on the server (virtualThreads)");

    final String name;
    final String description;

    Dispatch(String name, String description) {
      this.name = name;
      this.description = description;
    }
  }

  private final Dispatch dispatch;
  private final Observability observability;

  /** The registries of the trial running now; one trial at a time. */
  private volatile Observability.Registries registries;

  private RpcxSystem(Dispatch dispatch, Observability observability) {
    this.dispatch = dispatch;
    this.observability = observability;
  }

  /** RPCX with its defaults: implementation code on the server's worker pool. */
  public static RpcxSystem withWorkerPool() {
    return new RpcxSystem(Dispatch.POOL, Observability.NONE);
  }

  /** RPCX with implementation code on the server's event loop. */
  public static RpcxSystem onEventLoop() {
    return new RpcxSystem(Dispatch.DIRECT, Observability.NONE);
  }

  /**
   * RPCX with its defaults and an implementation annotated {@code @NonBlocking}, which the server
   * runs on the network thread: what a user gets by declaring a method never blocks.
   */
  public static RpcxSystem nonBlocking() {
    return new RpcxSystem(Dispatch.NON_BLOCKING, Observability.NONE);
  }

  /** RPCX with each call on a virtual thread of the server's (Java 21+). */
  public static RpcxSystem onVirtualThreads() {
    return new RpcxSystem(Dispatch.VIRTUAL, Observability.NONE);
  }

  /** RPCX with its defaults, its calls observed as {@code observability} says. */
  public static RpcxSystem observed(Observability observability) {
    return new RpcxSystem(Dispatch.POOL, observability);
  }

  @Override
  public String name() {
    return dispatch.name + observability.suffix();
  }

  @Override
  public String description() {
    return "RPCX "
        + Versions.get("rpcx")
        + ", protobuf over Netty "
        + Versions.get("netty")
        + ", dynamic proxy client, "
        + dispatch.description
        + (observability == Observability.NONE
            ? ""
            : ", observed with rpcx-micrometer ("
                + observability.name().toLowerCase(Locale.ROOT)
                + ")");
  }

  @Override
  public boolean supports(Workload workload) {
    return true;
  }

  @Override
  public BenchmarkServer startServer() throws Exception {
    RpcxServer.Builder builder = RpcxServer.builder().bindAddress("127.0.0.1").port(0);
    if (dispatch == Dispatch.NON_BLOCKING) {
      builder.service("bench", new BenchServiceImpl.OnEventLoop());
    } else {
      builder.service(new BenchServiceImpl());
    }
    if (dispatch == Dispatch.POOL || dispatch == Dispatch.NON_BLOCKING) {
      builder.workerPool(); // the default before Java 24; virtual threads are from 24 on
    } else if (dispatch == Dispatch.DIRECT) {
      builder.directExecutor();
    } else if (dispatch == Dispatch.VIRTUAL) {
      builder.virtualThreads();
    }
    Observability.Registries observed = observability.create();
    registries = observed;
    if (observability == Observability.METERS) {
      RpcxServerMeters.instrument(builder, observed.meters());
    } else if (observed != null) {
      RpcxServerObservations.instrument(builder, observed.observations());
    }
    RpcxServer server = builder.build().start();
    if (observed != null) {
      new RpcxServerMetrics(server).bindTo(observed.meters());
    }
    return new BenchmarkServer() {
      @Override
      public int port() {
        return server.port();
      }

      @Override
      public void close() {
        try {
          server.stop();
        } catch (Exception e) {
          throw new IllegalStateException("stopping the RPCX server failed", e);
        } finally {
          if (observed != null) {
            observed.close();
          }
        }
      }
    };
  }

  @Override
  public BenchmarkClient connect(int port) {
    // 60 s per call, as the Netty, Dubbo and Feign adapters wait: RPCX's 5 s default turned
    // multi-second loopback TCP retransmission stalls at 810-990 stress threads into failed cells
    // that the other systems, with their longer waits, absorbed (docs/benchmarks/HISTORY.md, "The paper's grid").
    RpcxClient.Builder builder =
        RpcxClient.builder().target("127.0.0.1", port).defaultTimeout(Duration.ofSeconds(60));
    Observability.Registries observed = registries;
    if (observability != Observability.NONE && observed == null) {
      throw new IllegalStateException(
          name()
              + ": the client records into the registries of a server started in this JVM;"
              + " this one has none (a server in a JVM of its own, -Drpcx.bench.server=own-jvm?)");
    }
    if (observability == Observability.METERS) {
      builder.intercept(RpcxClientMeters.interceptor(observed.meters()));
    } else if (observed != null) {
      builder.intercept(RpcxClientObservations.interceptor(observed.observations()));
    }
    RpcxClient client = builder.build();
    if (observed != null) {
      new RpcxClientMetrics(client).bindTo(observed.meters());
    }
    return new Client(client.create(BenchService.class), client);
  }

  /** Delegates to the RPCX proxy; closing closes the client. */
  private static final class Client implements BenchmarkClient {
    private final BenchService service;
    private final RpcxClient client;

    Client(BenchService service, RpcxClient client) {
      this.service = service;
      this.client = client;
    }

    @Override
    public String echo(String text) {
      return service.echo(text);
    }

    @Override
    public OrderInfo loadOrder(OrderInfo order) {
      return service.loadOrder(order);
    }

    @Override
    public List<OrderInfo> loadOrders(List<OrderInfo> orders) {
      return service.loadOrders(orders);
    }

    @Override
    public byte[] echoBytes(byte[] data) {
      return service.echoBytes(data);
    }

    @Override
    public Message create(Message message) {
      return service.create(message);
    }

    @Override
    public boolean update(long id, Message message) {
      return service.update(id, message);
    }

    @Override
    public Message findById(long id) {
      return service.findById(id);
    }

    @Override
    public boolean remove(long id) {
      return service.remove(id);
    }

    @Override
    public void close() {
      try {
        client.close();
      } catch (Exception e) {
        throw new IllegalStateException("closing the RPCX client failed", e);
      }
    }
  }
}
