package io.rpcx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rpcx.server.RpcxServer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A server that does not publish its reflection service is told apart from an unknown service. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NoReflectionTest {

  @Test
  void aServerWithoutReflectionSaysHowToTurnItOn() {
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(new Shapes.Impl()).build().start();
    try {
      String address = "127.0.0.1:" + server.port();
      assertEquals(
          new Cli.Run(12, "", "NOT_FOUND: " + address + " has no reflection service (its server"
              + " must publish it: RpcxServer.builder().reflection(true), or"
              + " rpcx.server.reflection=true with the Spring Boot starter)\n"),
          Cli.run("call", address, "shapes/add", "[1, 2]"));
    } finally {
      server.stop(Duration.ofSeconds(5));
    }
  }
}
