package io.rpcx.benchmarks.http;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rpcx.benchmarks.api.BenchmarkClient;
import io.rpcx.benchmarks.api.BenchmarkServer;
import io.rpcx.benchmarks.api.BenchmarkSystem;
import io.rpcx.benchmarks.api.Versions;
import io.rpcx.benchmarks.api.Workload;
import io.rpcx.benchmarks.model.Message;
import io.rpcx.benchmarks.model.OrderInfo;
import io.rpcx.benchmarks.rpcx.BenchServiceImpl;
import io.rpcx.benchmarks.rpcx.RpcxSystem;
import io.rpcx.http.RpcxHttp;
import io.rpcx.server.RpcxServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * RPCX's HTTP/JSON side (issue 31): the server of the {@code rpcx} system ({@link
 * RpcxSystem#withWorkerPool()}'s settings: the annotated {@code BenchServiceImpl}, the worker pool)
 * with {@code http(RpcxHttp...)} on, called with {@code POST /bench/<method>} and the arguments as
 * a JSON array, the way a Java caller without RPCX's client would call it: the JDK's {@link
 * HttpClient} over HTTP/1.1 (one client shared by every thread, connections kept alive in its pool,
 * one per concurrent caller, as HTTP/1.1 carries one request at a time) and Jackson binding the
 * same POJOs. What the JSON path costs the server against RPCX's own protocol is what this system
 * is for; the server in a JVM of its own ({@code -Drpcx.bench.server=own-jvm}) tells that apart
 * from the client's cost.
 *
 * <p>Why the JDK's client: it is what a Java team has without a dependency, it keeps HTTP/1.1
 * connections alive by default, and its cost lands in the client's JVM, which the server's CPU
 * per call does not count. Feign over Apache HttpClient 5 is measured as its own system ({@code
 * feign}).
 */
public final class HttpJsonSystem implements BenchmarkSystem {
  /** Bodies up to the largest workload's (a 1 MiB string or 1 MiB of base64) fit. */
  private static final int MAX_REQUEST_BYTES = 16 << 20;

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @Override
  public String name() {
    return "http-json";
  }

  @Override
  public String description() {
    return "RPCX "
        + Versions.get("rpcx")
        + "'s HTTP/JSON side (worker pool, defaults), called by the JDK's HttpClient over HTTP/1.1"
        + " (keep-alive), JSON with Jackson "
        + Versions.get("jackson");
  }

  @Override
  public boolean supports(Workload workload) {
    return true;
  }

  @Override
  public BenchmarkServer startServer() {
    RpcxServer server =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .port(0)
            .service(new BenchServiceImpl())
            .workerPool() // as the rpcx system's server, on every Java
            .http(RpcxHttp.builder().maxRequestBytes(MAX_REQUEST_BYTES).build())
            .build()
            .start();
    return new BenchmarkServer() {
      @Override
      public int port() {
        return server.httpPort();
      }

      @Override
      public void close() {
        server.stop();
      }
    };
  }

  @Override
  public BenchmarkClient connect(int port) {
    HttpClient http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    return new Client(http, "http://127.0.0.1:" + port + "/bench/");
  }

  /** Each method one {@code POST /bench/<method>}, its arguments a JSON array. */
  private static final class Client implements BenchmarkClient {
    private static final ObjectMapper json = new ObjectMapper();
    private static final JavaType ORDERS = json.constructType(new TypeReference<List<OrderInfo>>() {});
    private static final JavaType STRING = json.constructType(String.class);
    private static final JavaType ORDER = json.constructType(OrderInfo.class);
    private static final JavaType BYTES = json.constructType(byte[].class);
    private static final JavaType MESSAGE = json.constructType(Message.class);
    private static final JavaType BOOLEAN = json.constructType(Boolean.class);

    private final HttpClient http;
    private final URI echo;
    private final URI loadOrder;
    private final URI loadOrders;
    private final URI echoBytes;
    private final URI create;
    private final URI update;
    private final URI findById;
    private final URI remove;

    Client(HttpClient http, String base) {
      this.http = http;
      this.echo = URI.create(base + "echo");
      this.loadOrder = URI.create(base + "loadOrder");
      this.loadOrders = URI.create(base + "loadOrders");
      this.echoBytes = URI.create(base + "echoBytes");
      this.create = URI.create(base + "create");
      this.update = URI.create(base + "update");
      this.findById = URI.create(base + "findById");
      this.remove = URI.create(base + "remove");
    }

    @Override
    public String echo(String text) {
      return call(echo, STRING, text);
    }

    @Override
    public OrderInfo loadOrder(OrderInfo order) {
      return call(loadOrder, ORDER, order);
    }

    @Override
    public List<OrderInfo> loadOrders(List<OrderInfo> orders) {
      return call(loadOrders, ORDERS, orders);
    }

    @Override
    public byte[] echoBytes(byte[] data) {
      return call(echoBytes, BYTES, (Object) data);
    }

    @Override
    public Message create(Message message) {
      return call(create, MESSAGE, message);
    }

    @Override
    public boolean update(long id, Message message) {
      return this.<Boolean>call(update, BOOLEAN, id, message);
    }

    @Override
    public Message findById(long id) {
      return call(findById, MESSAGE, id);
    }

    @Override
    public boolean remove(long id) {
      return this.<Boolean>call(remove, BOOLEAN, id);
    }

    /** Posts {@code arguments} as a JSON array and reads the reply as {@code result}. */
    private <T> T call(URI method, JavaType result, Object... arguments) {
      try {
        HttpRequest request =
            HttpRequest.newBuilder(method)
                .timeout(TIMEOUT)
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(arguments)))
                .build();
        HttpResponse<byte[]> response =
            http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
          throw new IllegalStateException(
              method + " answered " + response.statusCode() + ": "
                  + new String(response.body(), StandardCharsets.UTF_8));
        }
        return json.readValue(response.body(), result);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted calling " + method, e);
      }
    }

    /**
     * Nothing to release on Java 17: the JDK's client has no {@code close()} before Java 21, and
     * its connections and selector thread end once it is unreachable.
     */
    @Override
    public void close() {}
  }
}
