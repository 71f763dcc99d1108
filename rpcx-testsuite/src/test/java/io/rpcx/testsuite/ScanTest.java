package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rpcx.client.RpcxClient;
import io.rpcx.examples.api.EchoService;
import io.rpcx.server.RpcxServer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Services and client interfaces are found by package scan at start-up. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ScanTest {

  @Test
  void aServerPublishesTheServicesFoundByScanningAndAClientChecksItsInterfaces() {
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").scan("io.rpcx.examples.server").build().start();
    try (RpcxClient client =
        RpcxClient.builder()
            .target("127.0.0.1", server.port())
            .scan("io.rpcx.examples.api")
            .build()) {
      assertEquals(List.of("chat", "echo", "files", "infos", "messages", "orders"), server.services());
      assertEquals("scanned", client.create(EchoService.class).echo("scanned"));
    } finally {
      server.stop();
    }
  }
}
