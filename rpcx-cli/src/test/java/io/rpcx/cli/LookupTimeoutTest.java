package io.rpcx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rpcx.core.reflection.ReflectionService;
import io.rpcx.server.RpcxServer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code --timeout} is the timeout of the user's calls: rpcx's own look-ups of the reflection
 * service before them (here slowed down, as a server under load would answer them) get longer.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LookupTimeoutTest {
  private static RpcxServer server;
  private static String address;

  @BeforeAll
  static void start() {
    server =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .port(0)
            .service(new Shapes.Impl())
            .reflection(true)
            .intercept(
                (call, next) -> {
                  if (call.method().service().equals(ReflectionService.NAME)) {
                    Thread.sleep(1_500);
                  }
                  return next.proceed();
                })
            .build()
            .start();
    address = "127.0.0.1:" + server.port();
  }

  @AfterAll
  static void stop() {
    server.stop(Duration.ofSeconds(5));
  }

  @Test
  void aLookUpSlowerThanTimeoutDoesNotFailTheCall() {
    assertEquals(
        new Cli.Run(0, "3\n", ""), Cli.run("call", address, "shapes/add", "[1, 2]", "--timeout", "1s"));
  }

  @Test
  void theUsersCallStillEndsAtTimeout() {
    assertEquals(
        new Cli.Run(13, "", "TIMEOUT: shapes/sleep timed out after 1000 ms waiting for " + address
            + "\n"),
        Cli.run("call", address, "shapes/sleep", "[3000]", "--timeout", "1s"));
  }
}
