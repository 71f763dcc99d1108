package io.rpcx.benchmarks.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A system's server in a JVM of its own serves the system's client, is a child process of this JVM
 * whose CPU time the system reports (what {@code ServerCpuProfiler} reads), and is gone once
 * closed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ServerJvmTest {

  @Test
  void servesTheSystemsClientFromAChildProcessAndExitsWhenClosed() throws Exception {
    BenchmarkSystem system = Systems.get("grpc-on-rpcx");
    ServerJvm server = ServerJvm.start(system.name(), List.of("-Xmx256m"));
    ProcessHandle process = ProcessHandle.of(server.pid()).orElseThrow();
    try (Deployment d = Deployment.connect(system, server)) {
      assertEquals("0123456789abcdef", d.client().echo("0123456789abcdef"));
      assertTrue(
          ProcessHandle.current().children().anyMatch(child -> child.pid() == server.pid()),
          "the server JVM is a child of this one");
      Optional<Duration> cpu = process.info().totalCpuDuration();
      assertTrue(cpu.isPresent() && cpu.get().toNanos() > 0, "its CPU time: " + cpu);
    }
    process.onExit().get(10, TimeUnit.SECONDS);
    assertFalse(process.isAlive());
  }

  @Test
  void anUnknownSystemFailsBeforeAnyJvmStarts() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ServerJvm.start("thrift", List.of()));
    assertTrue(e.getMessage().startsWith("unknown system 'thrift'; registered: "), e.getMessage());
  }
}
