package io.rpcx.benchmarks.connections;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.benchmarks.connections.RawConnection.Method;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The measured server in a JVM of its own, driven as the tool drives it: it counts the lean
 * client's connections, reports them in its snapshots with the live heap they take, holds calls
 * until told, and lets them finish.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ServerProcessTest {

  @Test
  void aServerJvmIsMeasuredWithAndWithoutConnectionsAndCallsInFlight() throws Exception {
    List<String> jvm = List.of("-Xmx256m", "-XX:NativeMemoryTracking=summary");
    try (ServerProcess server = ServerProcess.start(jvm, 100, false);
        RawClient client = new RawClient(1)) {
      MemorySnapshot none = server.measure();
      assertEquals(0, none.connections);
      assertTrue(none.nativeByCategory.containsKey(MemorySnapshot.JAVA_HEAP));

      InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());
      List<RawConnection> connections = client.openAll(address, 50, 10);
      for (RawConnection connection : connections) {
        assertEquals("hi", connection.call(Method.ECHO, "hi", 0).join());
      }
      server.awaitConnections(50);
      MemorySnapshot open = server.measure();
      assertEquals(50, open.connections);
      assertTrue(open.liveHeap > none.liveHeap, open.liveHeap + " <= " + none.liveHeap);
      assertEquals(
          50, open.histogram.get("io.rpcx.server.internal.transport.ServerConnectionHandler")[0]);

      server.closeGate();
      List<CompletableFuture<String>> held = new ArrayList<>();
      for (RawConnection connection : connections) {
        held.add(connection.call(Method.HOLD, "held", 60_000));
      }
      server.awaitCalls(50);
      server.awaitWaiting(50);
      assertEquals(50, server.measure().callsInFlight);
      server.openGate();
      for (CompletableFuture<String> call : held) {
        assertEquals("held", call.join());
      }
      for (RawConnection connection : connections) {
        connection.close().join();
      }
      server.awaitConnections(0);
    }
  }
}
