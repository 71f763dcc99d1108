package io.rpcx.examples.server;

import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.rpcx.http.RpcxHttp;
import io.rpcx.micrometer.RpcxMeterObservationHandler;
import io.rpcx.micrometer.RpcxServerMetrics;
import io.rpcx.micrometer.RpcxServerObservations;
import io.rpcx.registry.zookeeper.ZooKeeperRegistry;
import io.rpcx.server.RpcxServer;
import java.time.Duration;

/**
 * Runs the example services:
 *
 * <pre>
 * java -jar rpcx-example-server.jar [--port N] [--bind ADDRESS] [--http] [--metrics-port N]
 *     [--max-connection-age SECONDS] [--zookeeper HOST:PORT[,...] [--advertise HOST]]
 * </pre>
 *
 * The port defaults to 9000 (0 picks a free one). The server listens on every interface, and
 * publishes its reflection service, unless {@code --bind} names the one address to listen on
 * ({@code 127.0.0.1}: this machine only); the metrics port listens on the same address. With
 * {@code --max-connection-age}, each connection is told to go away once it is that old (grace
 * 30 s), so that clients behind a load balancer spread onto servers added later. With {@code
 * --http}, the same port also answers HTTP/JSON calls ({@code curl -H 'content-type:
 * application/json' -d '[42]' http://localhost:9000/orders/findOrder}), the OpenAPI document of
 * the services ({@code /openapi.json}) and the service console for a browser ({@code /}). With
 * {@code --metrics-port}, every call is measured (rpcx-micrometer) and
 * {@code http://HOST:N/metrics} serves the measurements to Prometheus. With
 * {@code --zookeeper}, the server registers its services there under the address
 * {@code --advertise} (default: the first site-local address of this machine) and withdraws them
 * when it stops. Services are found by scanning this package, which works from the runnable jar
 * too.
 */
public final class ExampleServer implements AutoCloseable {
  private static final String USAGE =
      "usage: java -jar rpcx-example-server.jar [--port N] [--bind ADDRESS] [--http]"
          + " [--metrics-port N] [--max-connection-age SECONDS]"
          + " [--zookeeper HOST:PORT[,...] [--advertise HOST]]";

  private final RpcxServer server;
  private final ZooKeeperRegistry registry;
  private final MetricsEndpoint metrics;
  /** The address listened on; {@code null} for every interface. */
  private final String bind;
  /** Whether the port answers HTTP too ({@code --http}). */
  private final boolean http;

  private ExampleServer(
      RpcxServer server,
      ZooKeeperRegistry registry,
      MetricsEndpoint metrics,
      String bind,
      boolean http) {
    this.server = server;
    this.registry = registry;
    this.metrics = metrics;
    this.bind = bind;
    this.http = http;
  }

  public static void main(String[] args) throws InterruptedException {
    ExampleServer running;
    try {
      running = start(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println(USAGE);
      System.exit(2);
      return;
    } catch (RuntimeException e) {
      // A port in use, an unreachable ZooKeeper: nothing is left running; say why and exit.
      System.err.println("cannot start the example server: " + e.getMessage());
      System.exit(1);
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(running::close, "rpcx-example-shutdown"));
    if (running.bind == null) {
      System.out.println("Listening on every interface with the reflection service on: anyone who"
          + " can reach port " + running.server.port() + " can list and call these services"
          + " (--bind 127.0.0.1 keeps them to this machine)");
    }
    System.out.println("RPCX example server ready on port " + running.server.port()
        + " with services " + running.server.services()
        + (running.http
            ? ", HTTP/JSON, OpenAPI and the console on http://localhost:" + running.server.port()
                + "/"
            : "")
        + (running.registry != null ? ", registered in " + running.registry.describe() : "")
        + (running.metrics != null
            ? ", metrics on http://localhost:" + running.metrics.port() + "/metrics"
            : ""));
    running.server.awaitTermination();
  }

  /**
   * Starts the example server as the command line {@code args} say.
   *
   * @throws IllegalArgumentException if an argument is not one of the usage's
   */
  public static ExampleServer start(String... args) {
    int port = 9000;
    int metricsPort = -1;
    String zooKeeper = null;
    String advertise = null;
    String bind = null;
    int maxConnectionAge = 0;
    boolean http = false;
    for (int i = 0; i < args.length; i++) {
      boolean hasValue = i + 1 < args.length;
      if (args[i].equals("--port") && hasValue) {
        port = number(args[i], args[++i]);
      } else if (args[i].equals("--bind") && hasValue) {
        bind = args[++i];
      } else if (args[i].equals("--http")) {
        http = true;
      } else if (args[i].equals("--metrics-port") && hasValue) {
        metricsPort = number(args[i], args[++i]);
      } else if (args[i].equals("--zookeeper") && hasValue) {
        zooKeeper = args[++i];
      } else if (args[i].equals("--advertise") && hasValue) {
        advertise = args[++i];
      } else if (args[i].equals("--max-connection-age") && hasValue) {
        maxConnectionAge = number(args[i], args[++i]);
      } else {
        throw new IllegalArgumentException("unexpected argument: " + args[i]);
      }
    }
    // Reflection on: `rpcx list`, `rpcx describe` and `rpcx call` work against the example server.
    RpcxServer.Builder builder =
        RpcxServer.builder().port(port).scan("io.rpcx.examples.server").reflection(true);
    if (bind != null) {
      builder.bindAddress(bind);
    }
    if (http) {
      // The reflection service, on above, guards the document and the console: what
      // interceptors let list the services may see them.
      builder.http(RpcxHttp.builder().openApi(true).console(true).build());
    }
    if (maxConnectionAge > 0) {
      builder.maxConnectionAge(Duration.ofSeconds(maxConnectionAge), Duration.ofSeconds(30));
    }
    PrometheusMeterRegistry meters = null;
    if (metricsPort >= 0) {
      meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      ObservationRegistry observations = ObservationRegistry.create();
      observations
          .observationConfig()
          .observationHandler(
              new FirstMatchingCompositeObservationHandler(
                  new RpcxMeterObservationHandler(meters),
                  new DefaultMeterObservationHandler(meters)));
      RpcxServerObservations.instrument(builder, observations);
    }
    // The metrics port first: a port in use fails the start before anything else is running.
    MetricsEndpoint metrics =
        meters == null ? null : MetricsEndpoint.start(bind, metricsPort, meters);
    ZooKeeperRegistry registry = null;
    RpcxServer server;
    try {
      if (zooKeeper != null) {
        registry = ZooKeeperRegistry.builder().connectString(zooKeeper).build();
        builder.registrar(registry);
        if (advertise != null) {
          builder.advertise(advertise);
        }
      }
      server = builder.build().start();
    } catch (RuntimeException e) {
      if (registry != null) {
        registry.close();
      }
      if (metrics != null) {
        metrics.close();
      }
      throw e;
    }
    if (meters != null) {
      new RpcxServerMetrics(server).bindTo(meters);
    }
    return new ExampleServer(server, registry, metrics, bind, http);
  }

  private static int number(String option, String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + ": " + value + " (expected: a number)");
    }
  }

  /** The RPCX server. */
  public RpcxServer server() {
    return server;
  }

  /** The port metrics are served on, or -1 without {@code --metrics-port}. */
  public int metricsPort() {
    return metrics == null ? -1 : metrics.port();
  }

  /** Stops the server, the metrics endpoint and the registration. */
  @Override
  public void close() {
    server.stop();
    if (metrics != null) {
      metrics.close();
    }
    if (registry != null) {
      registry.close();
    }
  }
}
