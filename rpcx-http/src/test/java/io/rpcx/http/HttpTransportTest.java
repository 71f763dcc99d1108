package io.rpcx.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.TlsConfig;
import io.rpcx.core.UnavailableException;
import io.rpcx.internal.testing.TestCertificates;
import io.rpcx.server.RpcxServer;
import io.rpcx.server.ServerInterceptor;
import io.rpcx.server.ServerInterceptors;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP side on the wire: HTTP/2 over TLS chosen by ALPN beside HTTP/1.1, HTTP/2 in cleartext
 * with prior knowledge, RPCX and gRPC clients on the same port, the server's bearer token and
 * interceptors applying to HTTP calls as to any other, and a port of its own for HTTP.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpTransportTest {
  private static final String TOKEN = "s3cret";
  private static final List<String> intercepted = new CopyOnWriteArrayList<>();

  @TempDir static Path directory;
  private static TestCertificates.Authority authority;
  private static RpcxServer secured;
  private static SSLContext trusting;

  @BeforeAll
  static void start() throws Exception {
    authority = new TestCertificates(directory).authority("http-ca");
    TestCertificates.Leaf leaf = authority.issue("server", "127.0.0.1", "localhost");
    ServerInterceptor recorder =
        (call, next) -> {
          intercepted.add(call.method().fullName() + " " + call.metadata().get("x-tenant"));
          return next.proceed();
        };
    secured =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .port(0)
            .service(new Shop.Impl())
            .tls(TlsConfig.server(leaf.certificateChain, leaf.privateKey).build())
            .intercept(recorder)
            .intercept(ServerInterceptors.bearerToken(TOKEN::equals))
            .http(RpcxHttp.builder().build())
            .build()
            .start();
    trusting = trusting(authority.certificateFile());
  }

  @AfterAll
  static void stop() {
    secured.stop(Duration.ofSeconds(5));
  }

  private static SSLContext trusting(Path certificate) throws Exception {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    store.load(null, null);
    try (InputStream in = Files.newInputStream(certificate)) {
      store.setCertificateEntry(
          "ca",
          java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return context;
  }

  private static HttpResponse<String> post(
      HttpClient.Version version, String url, String json, String... headers) {
    HttpClient client =
        HttpClient.newBuilder()
            .version(version)
            .sslContext(trusting)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(20))
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    try {
      return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String securedUrl(String path) {
    return "https://127.0.0.1:" + secured.port() + path;
  }

  private static JsonNode json(String text) {
    return JsonMapping.parse(text, "the answer");
  }

  @Test
  void overTlsAlpnChoosesHttp2AndHttp1StillAnswers() {
    for (HttpClient.Version version : HttpClient.Version.values()) {
      HttpResponse<String> response =
          post(version, securedUrl("/shop/find"), "[7]", "authorization", "Bearer " + TOKEN);
      assertEquals(200, response.statusCode(), response.body());
      assertEquals(version, response.version());
      assertEquals("SKU-7", json(response.body()).get("sku").asText());
    }
  }

  @Test
  void theServersBearerTokenGuardsHttpCalls() {
    HttpResponse<String> missing = post(HttpClient.Version.HTTP_2, securedUrl("/shop/find"), "[1]");
    assertEquals(401, missing.statusCode(), missing.body());
    assertEquals("UNAUTHENTICATED", json(missing.body()).get("status").asText());
    assertEquals(
        "missing credentials: the call has no 'authorization' metadata",
        json(missing.body()).get("message").asText());

    HttpResponse<String> wrong =
        post(
            HttpClient.Version.HTTP_1_1,
            securedUrl("/shop/find"),
            "[1]",
            "authorization",
            "Bearer guess");
    assertEquals(401, wrong.statusCode(), wrong.body());
    assertEquals("invalid credentials", json(wrong.body()).get("message").asText());
  }

  @Test
  void interceptorsSeeHttpCallsWithTheirHeadersAsMetadata() {
    HttpResponse<String> response =
        post(
            HttpClient.Version.HTTP_2,
            securedUrl("/shop/find"),
            "[3]",
            "authorization",
            "Bearer " + TOKEN,
            "x-tenant",
            "acme-http");
    assertEquals(200, response.statusCode(), response.body());
    assertTrue(intercepted.contains("shop/find acme-http"), intercepted.toString());
  }

  @Test
  void rpcxAndGrpcClientsCallTheSamePort() throws Exception {
    TlsConfig tls = TlsConfig.client().trust(authority.certificateFile()).build();
    for (String target :
        List.of("127.0.0.1:" + secured.port(), "grpc://127.0.0.1:" + secured.port())) {
      try (RpcxClient client =
          RpcxClient.builder()
              .targets(Shop.class, target)
              .tls(tls)
              .bearerToken(TOKEN)
              .defaultTimeout(Duration.ofSeconds(10))
              .build()) {
        assertEquals("SKU-5", client.create(Shop.class).find(5).sku(), target);
      }
    }
  }

  @Test
  void cleartextHttp2WithPriorKnowledgeIsServed() throws Exception {
    assumeTrue(
        Files.isExecutable(Path.of("/usr/bin/curl")),
        "curl is not installed (Debian package curl): HTTP/2 with prior knowledge is not tried");
    RpcxServer plain =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .port(0)
            .service(new Shop.Impl())
            .http(RpcxHttp.builder().build())
            .build()
            .start();
    try {
      String base = "http://127.0.0.1:" + plain.port();
      List<String> unary = curl("--http2-prior-knowledge", "-d", "[9]", base + "/shop/find");
      assertEquals("2 200", unary.get(0), unary.toString());
      assertEquals("SKU-9", json(unary.get(1)).get("sku").asText());

      List<String> stream = curl("--http2-prior-knowledge", "-d", "[3]", base + "/shop/items");
      assertEquals("2 200", stream.get(0), stream.toString());
      List<String> lines = stream.subList(1, stream.size());
      assertEquals(3, lines.size(), lines.toString());
      assertEquals("SKU-2", json(lines.get(2)).get("result").get("sku").asText());
    } finally {
      plain.stop(Duration.ofSeconds(5));
    }
  }

  /** curl's answer: its HTTP version and status, then the body's lines. */
  private static List<String> curl(String... arguments) throws Exception {
    List<String> command =
        new java.util.ArrayList<>(
            List.of(
                "/usr/bin/curl",
                "-sS",
                "--max-time",
                "20",
                "-H",
                "content-type: application/json",
                "-o",
                "-",
                "-w",
                "\n%{http_version} %{http_code}"));
    command.addAll(List.of(arguments));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), "curl did not end");
    assertEquals(0, process.exitValue(), output);
    List<String> lines = new java.util.ArrayList<>(output.lines().filter(l -> !l.isEmpty()).toList());
    String status = lines.remove(lines.size() - 1);
    lines.add(0, status);
    return lines;
  }

  @Test
  void httpOnAPortOfItsOwnLeavesTheServersPortToRpcxAndGrpc() throws Exception {
    RpcxServer split =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .port(0)
            .service(new Shop.Impl())
            .http(RpcxHttp.builder().build())
            .httpPort(0)
            .build()
            .start();
    try {
      int httpPort = split.httpPort();
      assertTrue(httpPort != split.port(), "HTTP on its own port");
      HttpResponse<String> answer =
          post(HttpClient.Version.HTTP_1_1, "http://127.0.0.1:" + httpPort + "/shop/find", "[4]");
      assertEquals(200, answer.statusCode(), answer.body());
      assertEquals("SKU-4", json(answer.body()).get("sku").asText());

      assertThrows(
          UncheckedIOException.class,
          () ->
              post(
                  HttpClient.Version.HTTP_1_1,
                  "http://127.0.0.1:" + split.port() + "/shop/find",
                  "[4]"),
          "the server's own port serves no HTTP");
      try (RpcxClient rpcx =
              RpcxClient.builder()
                  .targets(Shop.class, "127.0.0.1:" + split.port())
                  .defaultTimeout(Duration.ofSeconds(10))
                  .build();
          RpcxClient onHttpPort =
              RpcxClient.builder()
                  .targets(Shop.class, "127.0.0.1:" + httpPort)
                  .defaultTimeout(Duration.ofSeconds(2))
                  .build()) {
        assertEquals("SKU-6", rpcx.create(Shop.class).find(6).sku());
        assertThrows(UnavailableException.class, () -> onHttpPort.create(Shop.class).find(6));
      }
    } finally {
      split.stop(Duration.ofSeconds(5));
    }
  }
}
