package io.rpcx.benchmarks.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A system's server in a JVM of its own serves the system's client and is gone once closed; the
 * CPU time of the server JVMs this JVM started (what {@code ServerCpuProfiler} reads) grows while
 * one serves and keeps what a closed one spent.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ServerJvmTest {

  @Test
  void servesTheSystemsClientFromAChildProcessAndExitsWhenClosed() throws Exception {
    BenchmarkSystem system = Systems.get("grpc-on-rpcx");
    ServerJvm server = ServerJvm.start(system.name(), List.of("-Xmx256m"));
    ProcessHandle process = ProcessHandle.of(server.pid()).orElseThrow();
    long before = ServerJvm.cpuNanos().orElseThrow();
    long serving;
    try (Deployment d = Deployment.connect(system, server)) {
      for (int i = 0; i < 1000; i++) {
        assertEquals("0123456789abcdef", d.client().echo("0123456789abcdef"));
      }
      serving = ServerJvm.cpuNanos().orElseThrow();
      assertTrue(serving > before, before + " ns, then " + serving + " ns");
    }
    process.onExit().get(10, TimeUnit.SECONDS);
    assertFalse(process.isAlive());
    assertTrue(ServerJvm.cpuNanos().orElseThrow() >= serving, "a closed server's CPU time stays");
  }

  @Test
  void anUnknownSystemFailsBeforeAnyJvmStarts() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ServerJvm.start("thrift", List.of()));
    assertTrue(e.getMessage().startsWith("unknown system 'thrift'; registered: "), e.getMessage());
  }
}
