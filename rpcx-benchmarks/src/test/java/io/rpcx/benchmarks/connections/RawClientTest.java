package io.rpcx.benchmarks.connections;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rpcx.benchmarks.connections.RawConnection.Method;
import io.rpcx.server.RpcxServer;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The lean client of the connection-cost tool against a real RPCX server: each of its connections
 * is one more connection the server counts, calls come back equal, held and blocked calls stay in
 * flight until the gate opens, and a closed connection fails its pending calls.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RawClientTest {
  private final ConnectionCostServiceImpl service = new ConnectionCostServiceImpl();
  private RpcxServer server;
  private RawClient client;
  private InetSocketAddress address;

  @BeforeEach
  void start() {
    server =
        RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(service).build().start();
    client = new RawClient(1);
    address = new InetSocketAddress("127.0.0.1", server.port());
  }

  @AfterEach
  void stop() {
    client.close();
    server.stop(Duration.ofSeconds(1));
  }

  @Test
  void everyConnectionIsOneMoreServerConnectionAndEchoes() throws Exception {
    List<RawConnection> connections = client.openAll(address, 5, 2);
    // The server counts a connection as it writes its preface, which the client may read first.
    await(() -> server.connectionCount() == 5);
    for (RawConnection connection : connections) {
      assertEquals("0123456789abcdef", connection.call(Method.ECHO, "0123456789abcdef", 0).join());
      assertEquals("", connection.call(Method.ECHO, "", 5_000).join());
    }
  }

  @Test
  void heldAndBlockedCallsStayInFlightUntilTheGateOpens() throws Exception {
    List<RawConnection> connections = client.openAll(address, 3, 3);
    List<CompletableFuture<String>> calls = new ArrayList<>();
    for (RawConnection connection : connections) {
      calls.add(connection.call(Method.HOLD, "held", 60_000));
      calls.add(connection.call(Method.BLOCK, "blocked", 60_000));
    }
    await(() -> service.waiting() == 6);
    assertEquals(6, server.callsInFlight());
    calls.forEach(call -> assertFalse(call.isDone()));

    service.open();
    for (int i = 0; i < calls.size(); i++) {
      assertEquals(i % 2 == 0 ? "held" : "blocked", calls.get(i).join());
    }
    assertEquals("passes", connections.get(0).call(Method.HOLD, "passes", 0).join());

    service.close();
    CompletableFuture<String> again = connections.get(0).call(Method.HOLD, "again", 0);
    await(() -> service.waiting() == 1);
    service.open();
    assertEquals("again", again.join());
  }

  @Test
  void closingAConnectionFailsItsPendingCalls() throws Exception {
    RawConnection connection = client.openAll(address, 1, 1).get(0);
    CompletableFuture<String> held = connection.call(Method.HOLD, "x", 0);
    await(() -> service.waiting() == 1);
    connection.close().join();
    CompletionException failure = assertThrows(CompletionException.class, held::join);
    assertInstanceOf(ClosedChannelException.class, failure.getCause());
    assertInstanceOf(
        ClosedChannelException.class,
        assertThrows(CompletionException.class, () -> connection.call(Method.ECHO, "y", 0).join())
            .getCause());
    service.open();
  }

  @Test
  void aServerErrorFailsTheCallWithItsStatus() throws Exception {
    RawConnection connection = client.openAll(address, 1, 1).get(0);
    server.stop(Duration.ofSeconds(1)); // GOAWAY: the connection closes, its calls fail
    assertThrows(CompletionException.class, () -> connection.call(Method.ECHO, "z", 0).join());
  }

  private static void await(BooleanSupplier condition) {
    while (!condition.getAsBoolean()) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
    }
  }
}
