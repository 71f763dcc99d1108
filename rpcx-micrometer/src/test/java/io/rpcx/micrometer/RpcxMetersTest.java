package io.rpcx.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.NotFoundException;
import io.rpcx.core.RemoteFailureException;
import io.rpcx.server.RpcxServer;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The meters without Observation record the same timers, under the same names and tags, as the
 * observations do; each method, server and status keeps its one timer.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RpcxMetersTest {
  private final MeterRegistry meters = new SimpleMeterRegistry();
  private RpcxServer server;
  private RpcxClient client;

  @BeforeEach
  void start() {
    RpcxServer.Builder builder =
        RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(new Greeter.Impl());
    server = RpcxServerMeters.instrument(builder, meters).build().start();
    client =
        RpcxClient.builder()
            .target("127.0.0.1", server.port())
            .intercept(RpcxClientMeters.interceptor(meters))
            .build();
  }

  @AfterEach
  void stop() {
    client.close();
    server.stop();
  }

  private Timer timer(String name, String method, String status) {
    return meters.get(name).tag("rpc.method", method).tag("rpc.status_code", status).timer();
  }

  @Test
  void everyCallIsTimedOnBothSidesUnderTheRpcNamesAndTags() {
    Greeter greeter = client.create(Greeter.class);
    for (int i = 0; i < 3; i++) {
      assertEquals("hello ann", greeter.hello("ann"));
    }
    Timer clientTimer = timer("rpc.client.call.duration", "greeter/hello", "OK");
    assertEquals(3, clientTimer.count(), "one timer for the method, server and status");
    assertEquals(
        Set.of(
            "rpc.system.name=rpcx",
            "rpc.method=greeter/hello",
            "rpc.status_code=OK",
            "error.type=none",
            "server.address=127.0.0.1",
            "server.port=" + server.port()),
        tags(clientTimer));
    Timer serverTimer = timer("rpc.server.call.duration", "greeter/hello", "OK");
    assertEquals(3, serverTimer.count());
    assertEquals(
        Set.of(
            "rpc.system.name=rpcx",
            "rpc.method=greeter/hello",
            "rpc.status_code=OK",
            "error.type=none"),
        tags(serverTimer));
    assertTrue(
        clientTimer.totalTime(TimeUnit.NANOSECONDS) >= serverTimer.totalTime(TimeUnit.NANOSECONDS));
  }

  @Test
  void aFailureIsTimedWithItsStatus() {
    assertThrows(RemoteFailureException.class, () -> client.create(Greeter.class).fail("boom"));
    Timer clientTimer = timer("rpc.client.call.duration", "greeter/fail", "REMOTE_FAILURE");
    assertEquals("REMOTE_FAILURE", clientTimer.getId().getTag("error.type"));
    assertEquals(1, clientTimer.count());
    Timer serverTimer = timer("rpc.server.call.duration", "greeter/fail", "REMOTE_FAILURE");
    assertEquals("REMOTE_FAILURE", serverTimer.getId().getTag("error.type"));
    assertEquals(1, serverTimer.count());
  }

  @Test
  void aCallToAMethodTheServerDoesNotPublishIsTimedAsOther() {
    Greeter.WithUnknownMethod unknown = client.create(Greeter.WithUnknownMethod.class);
    assertThrows(NotFoundException.class, () -> unknown.goodbye("x"));
    assertEquals(1, timer("rpc.server.call.duration", "_OTHER", "NOT_FOUND").count());
    assertEquals(1, timer("rpc.client.call.duration", "greeter/goodbye", "NOT_FOUND").count());
  }

  /** A method two client interfaces of different services inherit: one Java method, two names. */
  public interface Hello {
    String hello(String name);
  }

  @RPCXClient(name = "greeter")
  public interface GreeterHello extends Hello {}

  @RPCXClient(name = "elsewhere")
  public interface ElsewhereHello extends Hello {}

  @Test
  void anInheritedMethodIsNamedByTheServiceOfEachInterface() {
    assertEquals("hello ann", client.create(GreeterHello.class).hello("ann"));
    assertThrows(NotFoundException.class, () -> client.create(ElsewhereHello.class).hello("ann"));
    assertEquals(1, timer("rpc.client.call.duration", "greeter/hello", "OK").count());
    assertEquals(1, timer("rpc.client.call.duration", "elsewhere/hello", "NOT_FOUND").count());
  }

  private static Set<String> tags(Timer timer) {
    Set<String> tags = new TreeSet<>();
    timer.getId().getTags().forEach(tag -> tags.add(tag.getKey() + "=" + tag.getValue()));
    return tags;
  }
}
