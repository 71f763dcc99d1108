package io.rpcx.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.annotation.Idempotent;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.client.EndpointStatus;
import io.rpcx.client.LoadBalancing;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.discovery.ServiceEndpoint;
import io.rpcx.core.discovery.StaticDiscovery;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * gRPC servers under the client's cluster machinery, as RPCX's own servers are: chosen per
 * endpoint ({@code grpc://} or discovery metadata), spread by the load balancer, left when they
 * stop or go away (calls they never took retried elsewhere), an idempotent call retried after a
 * failure that may have run it, and clear errors for a server that is not there or not gRPC.
 */
@Timeout(60)
class RpcxCallsGrpcClusterTest {

  /** The same service, its {@code echo} declared idempotent. */
  @RPCXClient(name = "interop")
  interface IdempotentEcho {
    @Idempotent
    String echo(String text);
  }

  private static RpcxClient.Builder client(String... targets) {
    return RpcxClient.builder()
        .targets(InteropService.class, targets)
        .targets(IdempotentEcho.class, targets)
        .loadBalancing(LoadBalancing.ROUND_ROBIN)
        .reconnectBackoff(Duration.ofMillis(100), Duration.ofMillis(500))
        .defaultTimeout(Duration.ofSeconds(20));
  }

  @Test
  void callsGoOnOnTheOtherServerWhenOneStops() throws Exception {
    GrpcJavaServer a = GrpcJavaServer.start();
    try (LogCapture logs =
            LogCapture.of(
                "io.rpcx.client.internal.cluster.Member",
                "io.rpcx.client.internal.transport.ServerConnector");
        GrpcJavaServer b = GrpcJavaServer.start();
        RpcxClient rpcx = client(a.target(), b.target()).build()) {
      InteropService interop = rpcx.create(InteropService.class);
      for (int i = 0; i < 20; i++) {
        assertEquals("call " + i, interop.echo("call " + i));
      }
      assertEquals(10, RpcxCallsGrpcStreamsTest.count(a.service.served, "echo"));
      assertEquals(10, RpcxCallsGrpcStreamsTest.count(b.service.served, "echo"));
      assertEquals(
          List.of(a.target(), b.target()),
          rpcx.endpoints(InteropService.class).stream().map(EndpointStatus::address).toList());

      String stopped = a.target(); // read before close, which forgets the port
      a.close();
      for (int i = 0; i < 50; i++) {
        assertEquals("after " + i, interop.echo("after " + i));
      }
      assertEquals(10, RpcxCallsGrpcStreamsTest.count(a.service.served, "echo"));
      assertEquals(60, RpcxCallsGrpcStreamsTest.count(b.service.served, "echo"));
      // Calls it refused went to b at once; after a few in a row it was ejected and probed, and
      // its connector, which cannot reconnect, says it is unreachable.
      List<String> warnings = logs.messages(Level.WARN);
      assertTrue(
          warnings.stream()
              .allMatch(
                  line ->
                      line.startsWith("Ejecting " + stopped + " for at least ")
                          || line.startsWith("RPCX server " + stopped + " is unreachable: ")),
          warnings.toString());
    } finally {
      a.close();
    }
  }

  @Test
  void aServerGoingAwayFinishesItsCallsAndTheNextOnesGoElsewhere() throws Exception {
    try (LogCapture logs = LogCapture.of("io.rpcx.client.internal.transport.ServerConnector");
        GrpcJavaServer a = GrpcJavaServer.start();
        GrpcJavaServer b = GrpcJavaServer.start();
        RpcxClient rpcx = client(a.target(), b.target()).build()) {
      InteropService interop = rpcx.create(InteropService.class);
      List<CompletableFuture<String>> sleeping = new ArrayList<>();
      for (int i = 0; i < 2; i++) { // round robin: one on each server
        sleeping.add(CompletableFuture.supplyAsync(() -> interop.sleep(1_500)));
      }
      RpcxCallsGrpcStreamsTest.await(
          "a call on each server",
          () -> a.service.served.contains("sleep") && b.service.served.contains("sleep"));
      String leaving = a.target(); // read before shutdown, which forgets the port
      a.server.shutdown(); // graceful: GOAWAY, then it waits for the calls it has
      // A call sent before the client reads the GOAWAY is still the server's to take, as in
      // grpc-java; the calls after it go elsewhere.
      assertTrue(
          logs.awaitLine(
              Level.DEBUG, "DEBUG The server at \\Q" + leaving + "\\E retired the connection .*"),
          logs.all());
      for (int i = 0; i < 20; i++) {
        assertEquals("next " + i, interop.echo("next " + i));
      }
      for (CompletableFuture<String> call : sleeping) {
        assertEquals("slept", call.get(30, TimeUnit.SECONDS));
      }
      assertEquals(0, RpcxCallsGrpcStreamsTest.count(a.service.served, "echo"));
      assertEquals(20, RpcxCallsGrpcStreamsTest.count(b.service.served, "echo"));
      assertTrue(a.server.awaitTermination(20, TimeUnit.SECONDS));
    }
  }

  @Test
  void anIdempotentCallIsRetriedOnTheOtherServerAfterAFailureThatMayHaveRunIt() {
    try (GrpcJavaServer a = GrpcJavaServer.start();
        GrpcJavaServer b = GrpcJavaServer.start();
        RpcxClient rpcx = client(a.target(), b.target()).build()) {
      a.service.echoUnavailable.set(1);
      IdempotentEcho idempotent = rpcx.create(IdempotentEcho.class);
      // Whichever of the two calls reaches a first is answered UNAVAILABLE there, then on b.
      assertEquals("one", idempotent.echo("one"));
      assertEquals("two", idempotent.echo("two"));
      assertEquals(0, a.service.echoUnavailable.get());
      assertEquals(1, rpcx.stats().retries());
      assertEquals(
          3,
          RpcxCallsGrpcStreamsTest.count(a.service.served, "echo")
              + RpcxCallsGrpcStreamsTest.count(b.service.served, "echo"),
          "two calls, one of them twice");

      // The same failure of a method that is not idempotent reaches its caller.
      a.service.echoUnavailable.set(1);
      InteropService interop = rpcx.create(InteropService.class);
      int failures = 0;
      for (int i = 0; i < 2; i++) {
        try {
          interop.echo("plain");
        } catch (UnavailableException e) {
          assertFalse(e.isSafeToRetry());
          assertEquals(
              "interop/echo failed on " + a.target() + ": busy, try elsewhere", e.getMessage());
          failures++;
        }
      }
      assertEquals(1, failures);
      assertEquals(1, rpcx.stats().retries());
    }
  }

  @Test
  void discoveryNamesAGrpcServerByItsProtocolAndMixesItWithRpcxServers() throws Exception {
    InteropServiceImpl implementation = new InteropServiceImpl();
    RpcxServer rpcxServer = InteropServer.builder(0, implementation).build().start();
    try (GrpcJavaServer grpc = GrpcJavaServer.start();
        RpcxClient rpcx =
            RpcxClient.builder()
                .discovery(
                    StaticDiscovery.builder()
                        .service(
                            "interop",
                            List.of(
                                ServiceEndpoint.of("127.0.0.1", rpcxServer.port()),
                                ServiceEndpoint.of(
                                    "127.0.0.1",
                                    grpc.port(),
                                    Map.of(ServiceEndpoint.PROTOCOL, ServiceEndpoint.GRPC))))
                        .build())
                .loadBalancing(LoadBalancing.ROUND_ROBIN)
                .build()) {
      InteropService interop = rpcx.create(InteropService.class);
      for (int i = 0; i < 10; i++) {
        assertEquals(Item.of(i), interop.echoItem(Item.of(i)));
      }
      assertEquals(5, RpcxCallsGrpcStreamsTest.count(grpc.service.served, "echoItem"));
      assertEquals(
          List.of("127.0.0.1:" + rpcxServer.port(), grpc.target()),
          rpcx.endpoints(InteropService.class).stream().map(EndpointStatus::address).toList());
    } finally {
      rpcxServer.stop();
    }
  }

  @Test
  void aServerThatIsNotThereIsUnavailableAndSafeToRetry() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    try (RpcxClient rpcx = client("grpc://127.0.0.1:" + port).maxAttempts(1).build()) {
      UnavailableException refused =
          assertThrows(
              UnavailableException.class, () -> rpcx.create(InteropService.class).echo("x"));
      assertTrue(refused.isSafeToRetry());
      assertTrue(
          refused.getMessage().startsWith(
              "interop/echo was not sent to grpc://127.0.0.1:" + port
                  + ": cannot connect to grpc://127.0.0.1:" + port + ": "),
          refused.getMessage());
    }
  }

  @Test
  void aServerThatDoesNotSpeakGrpcIsNamedAsSuch() {
    RpcxServer rpcxOnly = InteropServer.builder(0).grpc(false).build().start();
    try (LogCapture logs = LogCapture.of("io.rpcx.core.internal.transport.PrefaceHandler");
        RpcxClient rpcx =
        client("grpc://127.0.0.1:" + rpcxOnly.port()).maxAttempts(1).build()) {
      UnavailableException refused =
          assertThrows(
              UnavailableException.class, () -> rpcx.create(InteropService.class).echo("x"));
      assertTrue(refused.isSafeToRetry());
      assertTrue(
          refused.getMessage().contains(
              "closed the connection before completing the HTTP/2 handshake"),
          refused.getMessage());
      assertTrue(refused.getMessage().contains("is it a gRPC server?"), refused.getMessage());
      // The server's side of it: HTTP/2's connection preface is not RPCX's.
      List<String> server = logs.messages(Level.WARN);
      assertEquals(1, server.size(), server.toString());
      assertTrue(
          server.get(0).startsWith("Closing connection from /127.0.0.1:")
              && server.get(0).endsWith(
                  ": invalid preface 0x505249202a204854 ('PRI * HT'): not an RPCX client"),
          server.get(0));
    } finally {
      rpcxOnly.stop();
    }
  }
}
