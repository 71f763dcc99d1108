package io.rpcx.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.CallResult;
import io.rpcx.client.ClientCall;
import io.rpcx.client.ClientInterceptor;
import io.rpcx.client.EndpointStatus;
import io.rpcx.client.LoadBalancing;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.CallTimeoutException;
import io.rpcx.core.NotFoundException;
import io.rpcx.core.RemoteFailureException;
import io.rpcx.core.UnauthenticatedException;
import io.rpcx.core.reflection.ReflectionService;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.ExceptionLogging;
import io.rpcx.server.ServerInterceptor;
import io.rpcx.spring.boot.RpcxClientBuilderCustomizer;
import io.rpcx.spring.boot.RpcxServerBuilderCustomizer;
import io.rpcx.spring.boot.autoconfigure.greeter.ClientApp;
import io.rpcx.spring.boot.autoconfigure.greeter.Greeter;
import io.rpcx.spring.boot.autoconfigure.greeter.GreeterImpl;
import io.rpcx.spring.boot.autoconfigure.greeter.ServerApp;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

/** The {@code rpcx.*} properties, interceptor beans and customizers take effect. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PropertiesTest {
  /** What the interceptors and customizers saw, in order. */
  static final List<String> seen = new CopyOnWriteArrayList<>();

  @AfterEach
  void reset() {
    seen.clear();
    GreeterImpl.gate.countDown();
  }

  @Test
  void bearerTokensOnBothSides() {
    try (ConfigurableApplicationContext server =
            Apps.server("rpcx.server.bearer-tokens=s3cret,other");
        ConfigurableApplicationContext withToken =
            Apps.client(Apps.port(server), "rpcx.client.bearer-token=s3cret");
        ConfigurableApplicationContext without = Apps.client(Apps.port(server))) {
      assertEquals("Hello, Ada", withToken.getBean(Greeter.class).greet("Ada"));
      UnauthenticatedException refused =
          assertThrows(
              UnauthenticatedException.class, () -> without.getBean(Greeter.class).greet("Ada"));
      assertEquals(
          "greeter/greet failed on 127.0.0.1:" + Apps.port(server)
              + ": missing credentials: the call has no 'authorization' metadata",
          refused.getMessage());
    }
  }

  @Test
  void reflectionWhenAskedAndBehindTheBearerTokens() {
    try (ConfigurableApplicationContext server =
            Apps.server("rpcx.server.reflection=true", "rpcx.server.bearer-tokens=s3cret");
        ConfigurableApplicationContext plain = Apps.server();
        RpcxClient trusted =
            RpcxClient.builder().target("127.0.0.1", Apps.port(server)).bearerToken("s3cret").build();
        RpcxClient anonymous = RpcxClient.builder().target("127.0.0.1", Apps.port(server)).build();
        RpcxClient toPlain = RpcxClient.builder().target("127.0.0.1", Apps.port(plain)).build()) {
      assertEquals(
          List.of("greeter", ReflectionService.NAME),
          trusted.create(ReflectionService.class).listServices());
      assertThrows(
          UnauthenticatedException.class,
          () -> anonymous.create(ReflectionService.class).listServices());
      assertThrows(NotFoundException.class, () -> toPlain.create(ReflectionService.class).listServices());
    }
  }

  @Test
  void grpcOnThePortUnlessTurnedOff() throws Exception {
    try (ConfigurableApplicationContext withGrpc = Apps.server();
        ConfigurableApplicationContext without = Apps.server("rpcx.server.grpc.enabled=false");
        LogCapture log = LogCapture.of("io.rpcx")) {
      assertEquals(SETTINGS, firstFrameType(Apps.port(withGrpc)), "HTTP/2's SETTINGS");
      assertEquals(-1, firstFrameType(Apps.port(without)), "closed: not an RPCX preface");
      assertTrue(
          log.awaitLine(Level.WARN, ".*invalid preface 0x505249202a.*"),
          "the RPCX-only server says what it was sent: " + log.all());
    }
  }

  private static final int SETTINGS = 4;

  /**
   * Opens a connection as an HTTP/2 client does (the preface and an empty SETTINGS) and returns
   * the type of the first frame the server answers with, or -1 if it closes the connection.
   */
  private static int firstFrameType(int port) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.write(new byte[] {0, 0, 0, SETTINGS, 0, 0, 0, 0, 0});
      out.flush();
      byte[] header = socket.getInputStream().readNBytes(9);
      return header.length < 9 ? -1 : header[3];
    }
  }

  @Test
  void stackTracesAreSentWhenAsked() {
    try (ConfigurableApplicationContext sending =
            Apps.run(
                new Class<?>[] {ServerApp.class, Refusing.class},
                "rpcx.server.port=0",
                "rpcx.server.send-stack-traces=true");
        ConfigurableApplicationContext keeping =
            Apps.run(new Class<?>[] {ServerApp.class, Refusing.class}, "rpcx.server.port=0");
        RpcxClient toSending =
            RpcxClient.builder().target("127.0.0.1", Apps.port(sending)).build();
        RpcxClient toKeeping =
            RpcxClient.builder().target("127.0.0.1", Apps.port(keeping)).build()) {
      RemoteFailureException sent =
          assertThrows(
              RemoteFailureException.class, () -> toSending.create(Greeter.class).greet("Ada"));
      assertEquals(Refusing.class.getName(), sent.getStackTrace()[0].getClassName());
      assertEquals("refuse", sent.getStackTrace()[0].getMethodName());
      RemoteFailureException kept =
          assertThrows(
              RemoteFailureException.class, () -> toKeeping.create(Greeter.class).greet("Ada"));
      assertEquals(IllegalStateException.class.getName(), kept.remoteClassName());
      assertTrue(
          Arrays.stream(kept.getStackTrace())
              .noneMatch(frame -> frame.getClassName().equals(Refusing.class.getName())),
          () -> Arrays.toString(kept.getStackTrace()));
    }
  }

  /** An interceptor that refuses every call with an exception (which the server does not log). */
  @Configuration(proxyBeanMethods = false)
  static class Refusing {
    @Bean
    ServerInterceptor refusing() {
      return (call, next) -> refuse();
    }

    @Bean
    RpcxServerBuilderCustomizer withoutExceptionLogs() {
      return builder -> builder.exceptionLogging(ExceptionLogging.off(), ExceptionLogging.off());
    }

    static CompletionStage<Object> refuse() {
      throw new IllegalStateException("no calls today");
    }
  }

  @Test
  void theDefaultTimeout() {
    GreeterImpl.gate = new CountDownLatch(1);
    try (ConfigurableApplicationContext server = Apps.server();
        ConfigurableApplicationContext client =
            Apps.client(Apps.port(server), "rpcx.client.default-timeout=150ms")) {
      CallTimeoutException timedOut =
          assertThrows(
              CallTimeoutException.class, () -> client.getBean(Greeter.class).held("Ada"));
      assertTrue(
          timedOut.getMessage().startsWith("greeter/held timed out after 150 ms"),
          timedOut.getMessage());
      GreeterImpl.gate.countDown(); // the call still runs on the server: let it end before the stop
    }
  }

  @Test
  void targetsAndLoadBalancingPerService() {
    try (ConfigurableApplicationContext server = Apps.server();
        ConfigurableApplicationContext client =
            Apps.run(
                ClientApp.class,
                "rpcx.client.services.greeter.targets=127.0.0.1:" + Apps.port(server),
                "rpcx.client.services.greeter.load-balancing=round-robin")) {
      assertEquals("Hello, Ada", client.getBean(Greeter.class).greet("Ada"));
      List<EndpointStatus> endpoints =
          client.getBean(RpcxClient.class).endpoints(Greeter.class);
      assertEquals(1, endpoints.size());
      assertEquals("127.0.0.1:" + Apps.port(server), endpoints.get(0).address());
    }
  }

  @Test
  void grpcTargetsCallTheServersGrpcSide() {
    try (ConfigurableApplicationContext server = Apps.server()) {
      String grpc = "grpc://127.0.0.1:" + Apps.port(server);
      try (ConfigurableApplicationContext everyService =
              Apps.run(ClientApp.class, "rpcx.client.target=" + grpc);
          ConfigurableApplicationContext perService =
              Apps.run(ClientApp.class, "rpcx.client.services.greeter.targets=" + grpc)) {
        for (ConfigurableApplicationContext client : List.of(everyService, perService)) {
          assertEquals("Hello, Ada", client.getBean(Greeter.class).greet("Ada"));
          List<EndpointStatus> endpoints =
              client.getBean(RpcxClient.class).endpoints(Greeter.class);
          assertEquals(List.of(grpc), endpoints.stream().map(EndpointStatus::address).toList());
        }
      }
    }
  }

  @Test
  void metadataInterceptorsAndCustomizersInOrder() {
    try (ConfigurableApplicationContext server =
            Apps.run(
                new Class<?>[] {ServerApp.class, ServerExtras.class}, "rpcx.server.port=0");
        ConfigurableApplicationContext client =
            Apps.run(
                new Class<?>[] {ClientApp.class, ClientExtras.class},
                "rpcx.client.target=127.0.0.1:" + Apps.port(server),
                "rpcx.client.metadata.tenant=acme")) {
      assertEquals(
          List.of("client customizer 1", "client customizer 2"), List.copyOf(seen),
          "customizers ran in @Order when the client was built");
      seen.clear();
      client.getBean(Greeter.class).greet("Ada");
      assertEquals(
          List.of(
              "client first onStart",
              "client second onStart",
              "server first tenant=acme",
              "server second",
              "client second onEnd OK",
              "client first onEnd OK"),
          List.copyOf(seen));
    }
  }

  /** Two client interceptors in @Order, and two customizers. */
  @Configuration(proxyBeanMethods = false)
  static class ClientExtras {
    @Bean
    @Order(2)
    ClientInterceptor second() {
      return recording("second");
    }

    @Bean
    @Order(1)
    ClientInterceptor first() {
      return recording("first");
    }

    @Bean
    @Order(2)
    RpcxClientBuilderCustomizer laterCustomizer() {
      return builder -> seen.add("client customizer 2");
    }

    @Bean
    @Order(1)
    RpcxClientBuilderCustomizer earlierCustomizer() {
      return builder -> {
        seen.add("client customizer 1");
        builder.loadBalancing(LoadBalancing.ROUND_ROBIN);
      };
    }

    private static ClientInterceptor recording(String name) {
      return new ClientInterceptor() {
        @Override
        public void onStart(ClientCall call) {
          seen.add("client " + name + " onStart");
        }

        @Override
        public void onEnd(ClientCall call, CallResult result) {
          seen.add("client " + name + " onEnd " + result.status());
        }
      };
    }
  }

  /** Two server interceptors in @Order, and a customizer. */
  @Configuration(proxyBeanMethods = false)
  static class ServerExtras {
    @Bean
    @Order(20)
    ServerInterceptor secondServerInterceptor() {
      return (call, next) -> {
        seen.add("server second");
        return next.proceed();
      };
    }

    @Bean
    @Order(10)
    ServerInterceptor firstServerInterceptor() {
      return (call, next) -> {
        Map<String, String> metadata = call.metadata();
        seen.add("server first tenant=" + metadata.get("tenant"));
        return next.proceed();
      };
    }

    @Bean
    RpcxServerBuilderCustomizer serverCustomizer() {
      return builder -> builder.registrationMetadata("zone", "test");
    }
  }
}
