package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A frame declaring 2 GiB is refused from its header: nothing is allocated for it. Surefire runs
 * this class alone in a JVM with {@code -Xmx256m} (see rpcx-testsuite/pom.xml), where allocating the
 * frame would end in an OutOfMemoryError.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LowMemoryFrameTest {

  @Test
  void aTwoGigabyteFrameIsRefusedWithoutAllocatingIt() throws Exception {
    assertTrue(
        Runtime.getRuntime().maxMemory() <= 300L * 1024 * 1024,
        "run with -Xmx256m: " + Runtime.getRuntime().maxMemory());
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").service(new EchoService.Impl())
            .maxFrameSize(Integer.MAX_VALUE).build().start();
    try (LogCapture logs = LogCapture.rpcx();
        Bystander bystander = new Bystander(server.port())) {
      for (int i = 0; i < 20; i++) {
        try (RawConnection raw = new RawConnection(server.port()).handshake()) {
          raw.send(new byte[] {(byte) 0x80, 0, 0, 0, 1, 0}); // 2 GiB: over any int limit
          raw.send(new byte[64 * 1024]);
          assertTrue(raw.closedByServer());
        }
      }
      bystander.awaitProgress();
      assertEquals(0, bystander.errors());
      assertEquals(20, logs.await(Level.WARN, 20).size(), logs::all);
      logs.assertOnly(
          Level.WARN,
          "WARN Closing connection from /127\\.0\\.0\\.1:\\d+: frame of 2147483648 bytes exceeds the"
              + " limit of 2147483647 bytes");
    } finally {
      server.stop();
    }
  }
}
