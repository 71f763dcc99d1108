package io.rpcx.benchmarks.feign;

import com.fasterxml.jackson.databind.ObjectMapper;
import feign.Feign;
import feign.Request;
import feign.Retryer;
import feign.hc5.ApacheHttp5Client;
import io.rpcx.benchmarks.api.BenchmarkClient;
import io.rpcx.benchmarks.api.BenchmarkServer;
import io.rpcx.benchmarks.api.BenchmarkSystem;
import io.rpcx.benchmarks.api.Versions;
import io.rpcx.benchmarks.api.Workload;
import io.rpcx.benchmarks.model.Message;
import io.rpcx.benchmarks.model.OrderInfo;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * OpenFeign over HTTP/1.1 with JSON (Jackson) bodies, against a Jetty 12 server: the REST side of
 * the paper's comparison, where OpenFeign stands for Spring Cloud's declarative REST client.
 *
 * <p>Server: Jetty's {@link Server} with its default {@code QueuedThreadPool} (at most 200 threads)
 * and one HTTP/1.1 connector on 127.0.0.1, running {@link JsonBenchHandler}.
 *
 * <p>Client: Feign with the Apache HttpClient 5 transport ({@code feign-hc5}) and a pooled
 * connection manager of {@value #MAX_CONNECTIONS} connections. Feign's default client is {@code
 * HttpURLConnection}, whose keep-alive cache holds only 5 idle connections per host, so with 32 or
 * 128 threads most calls would open a new TCP connection; HTTP/1.1 carries one request at a time
 * per connection, so the pool is sized for every thread of the benchmarks and of the stress tool
 * (up to 990 threads) to keep its own connection, and the pool is never the queue. Automatic
 * retries are off, so failures are counted instead of retried.
 */
public final class FeignSystem implements BenchmarkSystem {
  static final int MAX_CONNECTIONS = 1024;
  private static final int TIMEOUT_SECONDS = 60;

  @Override
  public String name() {
    return "feign";
  }

  @Override
  public String description() {
    return "OpenFeign "
        + Versions.get("feign")
        + " + Apache HttpClient "
        + Versions.get("httpclient5")
        + " (pool of "
        + MAX_CONNECTIONS
        + "), HTTP/1.1 JSON (Jackson "
        + Versions.get("jackson")
        + ") to Jetty "
        + Versions.get("jetty")
        + " (default pool, max 200 threads)";
  }

  @Override
  public boolean supports(Workload workload) {
    return true;
  }

  @Override
  public BenchmarkServer startServer() throws Exception {
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    // Longer than any pause between stress cells, so pooled client connections are not cut.
    connector.setIdleTimeout(TimeUnit.MINUTES.toMillis(10));
    server.addConnector(connector);
    server.setHandler(new JsonBenchHandler(new ObjectMapper()));
    server.start();
    return new BenchmarkServer() {
      @Override
      public int port() {
        return connector.getLocalPort();
      }

      @Override
      public void close() {
        try {
          server.stop();
        } catch (Exception e) {
          throw new IllegalStateException("stopping Jetty failed", e);
        }
      }
    };
  }

  @Override
  public BenchmarkClient connect(int port) {
    PoolingHttpClientConnectionManager connections =
        PoolingHttpClientConnectionManagerBuilder.create()
            .setMaxConnTotal(MAX_CONNECTIONS)
            .setMaxConnPerRoute(MAX_CONNECTIONS)
            .setDefaultConnectionConfig(
                ConnectionConfig.custom()
                    .setConnectTimeout(Timeout.ofSeconds(5))
                    .setSocketTimeout(Timeout.ofSeconds(TIMEOUT_SECONDS))
                    .setValidateAfterInactivity(TimeValue.ofSeconds(2))
                    .build())
            .build();
    CloseableHttpClient http =
        HttpClients.custom().setConnectionManager(connections).disableAutomaticRetries().build();
    BinaryOrJsonCodec codec = new BinaryOrJsonCodec(new ObjectMapper());
    FeignBenchApi api =
        Feign.builder()
            .client(new ApacheHttp5Client(http))
            .encoder(codec)
            .decoder(codec)
            .dismiss404()
            .retryer(Retryer.NEVER_RETRY)
            .options(
                new Request.Options(5, TimeUnit.SECONDS, TIMEOUT_SECONDS, TimeUnit.SECONDS, true))
            .target(FeignBenchApi.class, "http://127.0.0.1:" + port);
    return new Client(api, http);
  }

  /** Delegates to the Feign proxy; closing closes the HTTP client and its pool. */
  private static final class Client implements BenchmarkClient {
    private final FeignBenchApi api;
    private final CloseableHttpClient http;

    Client(FeignBenchApi api, CloseableHttpClient http) {
      this.api = api;
      this.http = http;
    }

    @Override
    public String echo(String text) {
      return api.echo(text);
    }

    @Override
    public OrderInfo loadOrder(OrderInfo order) {
      return api.loadOrder(order);
    }

    @Override
    public List<OrderInfo> loadOrders(List<OrderInfo> orders) {
      return api.loadOrders(orders);
    }

    @Override
    public byte[] echoBytes(byte[] data) {
      return api.echoBytes(data);
    }

    @Override
    public Message create(Message message) {
      return api.create(message);
    }

    @Override
    public boolean update(long id, Message message) {
      return api.update(id, message);
    }

    @Override
    public Message findById(long id) {
      return api.findById(id);
    }

    @Override
    public boolean remove(long id) {
      return api.remove(id);
    }

    @Override
    public void close() {
      http.close(CloseMode.GRACEFUL);
    }
  }
}
