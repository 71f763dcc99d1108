package io.rpcx.kubernetes;

import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * fabric8's mock Kubernetes API server in CRUD mode (a real HTTP server that stores what it is
 * sent and streams watch events), on 127.0.0.1, behind a {@link CuttableProxy}. It checks the
 * bearer token of every request (answering 401, as an API server does for an expired token) and
 * records each request's method and path, for the RBAC check.
 */
final class MockKubernetes implements AutoCloseable {
  static final String NAMESPACE = "shop";
  static final String TOKEN = "service-account-token";
  /** The mock server logs every request through java.util.logging: kept to warnings. */
  private static final java.util.logging.Logger MOCK_LOG = quiet("io.fabric8.mockwebserver");

  private static java.util.logging.Logger quiet(String name) {
    java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
    logger.setLevel(java.util.logging.Level.WARNING);
    return logger;
  }

  private final KubernetesMockServer server;
  private final CuttableProxy proxy;
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private final List<KubernetesClient> clients = new CopyOnWriteArrayList<>();
  private volatile String acceptedToken = TOKEN;
  /** What the test itself does to the API server, with no proxy, no token check. */
  private final KubernetesClient admin;

  MockKubernetes() throws IOException {
    Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    Dispatcher crud = new KubernetesMixedDispatcher(responses);
    Dispatcher gated =
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            String authorization = request.getHeader("Authorization");
            if (authorization != null && authorization.equals("Bearer admin")) {
              return crud.dispatch(request);
            }
            requests.add(request.getMethod() + " " + request.getPath());
            if (authorization == null || !authorization.equals("Bearer " + acceptedToken)) {
              return new MockResponse()
                  .setResponseCode(401)
                  .setBody(
                      "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                          + "\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}");
            }
            return crud.dispatch(request);
          }
        };
    server = new KubernetesMockServer(new Context(), new MockWebServer(), responses, gated, false);
    server.init(InetAddress.getLoopbackAddress(), 0);
    proxy = new CuttableProxy(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getPort()));
    admin = new KubernetesClientBuilder().withConfig(config(server.getPort(), "admin")).build();
  }

  private static Config config(int port, String token) {
    return new ConfigBuilder(Config.empty())
        .withMasterUrl("http://127.0.0.1:" + port)
        .withNamespace(NAMESPACE)
        .withOauthToken(token)
        .withWatchReconnectInterval(50)
        .withRequestRetryBackoffLimit(0)
        .withConnectionTimeout(2_000)
        .withRequestTimeout(5_000)
        .build();
  }

  /** A client as an RPCX client's pod has one: through the proxy, with the service account's token. */
  KubernetesClient client() {
    return client(TOKEN);
  }

  /** A client through the proxy with {@code token}; closed with this server. */
  KubernetesClient client(String token) {
    KubernetesClient client =
        new KubernetesClientBuilder().withConfig(config(proxy.port(), token)).build();
    clients.add(client);
    return client;
  }

  /** Creates or replaces {@code slice}, as the EndpointSlice controller does. */
  void apply(EndpointSlice slice) {
    admin.resource(slice).inNamespace(NAMESPACE).createOr(existing -> existing.update());
  }

  void delete(String sliceName) {
    admin.discovery().v1().endpointSlices().inNamespace(NAMESPACE).withName(sliceName).delete();
  }

  /**
   * Closes every connection to the API server and refuses new ones, until {@link #reconnect()}.
   * Waits first for a watch to be open: fabric8 takes a failed first watch for a server without
   * WebSocket watches and falls back to HTTP ones, which this mock does not serve.
   */
  void disconnect() {
    Recorder.await(
        () -> requests.stream().anyMatch(request -> request.contains("watch=true")),
        () -> "a watch request");
    awaitWatchOpen();
    proxy.cut();
  }

  /** If a watch was asked for, gives its WebSocket upgrade time to be answered. */
  void awaitWatchOpen() {
    if (requests.stream().anyMatch(request -> request.contains("watch=true"))) {
      long opened = System.nanoTime() + 200_000_000L;
      while (System.nanoTime() - opened < 0) {
        java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
      }
    }
  }

  void reconnect() {
    proxy.restore();
  }

  /** Answers 401 to every request from now on: the token expired. */
  void expireToken() {
    acceptedToken = "a token no client has";
  }

  void renewToken() {
    acceptedToken = TOKEN;
  }

  /** Method and path of every request a client made, in order. */
  List<String> requests() {
    return List.copyOf(requests);
  }

  @Override
  public void close() throws IOException {
    clients.forEach(KubernetesClient::close);
    admin.close();
    try {
      server.destroy();
    } catch (IllegalStateException e) {
      // The mock's own Vert.x may take longer than its 10 s to close after a WebSocket was closed
      // during its handshake: nothing of the code under test, and the next test gets a new one.
    }
    proxy.close();
  }
}
