package io.rpcx.tests;

import io.rpcx.client.RpcxClient;
import io.rpcx.server.RpcxServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a real RPCX server on 127.0.0.1 (an ephemeral port) and a client pointed at it, for one test
 * class when registered in a static field, or for each test when registered in an instance field.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final RpcxExtension rpcx = RpcxExtension.withServices(new EchoServiceImpl());
 *
 * @Test
 * void echoes() {
 *   assertEquals("hi", rpcx.create(EchoService.class).echo("hi"));
 * }
 * }</pre>
 */
public final class RpcxExtension
    implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
  private final List<Object> services = new ArrayList<>();
  private Consumer<RpcxServer.Builder> serverConfig = builder -> {};
  private Consumer<RpcxClient.Builder> clientConfig = builder -> {};
  private boolean perClass;
  private RpcxServer server;
  private RpcxClient client;

  private RpcxExtension() {}

  /** An extension publishing {@code services}. */
  public static RpcxExtension withServices(Object... services) {
    RpcxExtension extension = new RpcxExtension();
    extension.services.addAll(List.of(services));
    return extension;
  }

  /** Adds server configuration, applied after the defaults (127.0.0.1, port 0). */
  public RpcxExtension server(Consumer<RpcxServer.Builder> config) {
    this.serverConfig = this.serverConfig.andThen(config);
    return this;
  }

  /** Adds client configuration, applied after the defaults (target the server). */
  public RpcxExtension client(Consumer<RpcxClient.Builder> config) {
    this.clientConfig = this.clientConfig.andThen(config);
    return this;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    perClass = true;
    start();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    stop();
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (!perClass) {
      start();
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (!perClass) {
      stop();
    }
  }

  private void start() {
    RpcxServer.Builder serverBuilder =
        RpcxServer.builder().bindAddress("127.0.0.1").port(0).shutdownGracePeriod(Duration.ofSeconds(5));
    services.forEach(serverBuilder::service);
    serverConfig.accept(serverBuilder);
    server = serverBuilder.build().start();
    RpcxClient.Builder clientBuilder = RpcxClient.builder().target("127.0.0.1", server.port());
    clientConfig.accept(clientBuilder);
    client = clientBuilder.build();
  }

  private void stop() {
    if (client != null) {
      client.close();
      client = null;
    }
    if (server != null) {
      server.stop(Duration.ofSeconds(5));
      server = null;
    }
  }

  public RpcxServer server() {
    return server;
  }

  public RpcxClient client() {
    return client;
  }

  public int port() {
    return server.port();
  }

  /** A proxy of {@code serviceInterface} from the extension's client. */
  public <T> T create(Class<T> serviceInterface) {
    return client.create(serviceInterface);
  }
}
