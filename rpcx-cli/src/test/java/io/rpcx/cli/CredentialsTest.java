package io.rpcx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rpcx.core.RpcxContext;
import io.rpcx.server.RpcxServer;
import io.rpcx.server.ServerInterceptors;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code --token} and {@code -H} reach the server with every call, the reflection calls included,
 * and refused credentials are one line with the UNAUTHENTICATED exit code.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CredentialsTest {
  private static RpcxServer server;
  private static String address;

  /** Returns the value of a metadata key as the server received it. */
  public interface Headers {
    String header(String key);
  }

  /** The implementation of {@link Headers}. */
  public static final class HeadersImpl implements Headers {
    @Override
    public String header(String key) {
      return RpcxContext.current().metadata().getOrDefault(key, "none");
    }
  }

  @BeforeAll
  static void start() {
    server =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .port(0)
            .service("headers", new HeadersImpl())
            .intercept(ServerInterceptors.bearerToken("s3cret"::equals))
            .reflection(true)
            .build()
            .start();
    address = "127.0.0.1:" + server.port();
  }

  @AfterAll
  static void stop() {
    server.stop(Duration.ofSeconds(5));
  }

  @Test
  void theTokenAndMetadataAreSentWithEveryCall() {
    Cli.Run run =
        Cli.run("call", address, "headers/header", "[\"tenant\"]", "--token", "s3cret",
            "-H", "tenant=blue");
    assertEquals(new Cli.Run(0, "\"blue\"\n", ""), run);
  }

  @Test
  void refusedCredentialsAreOneLineWithTheirExitCode() {
    assertEquals(
        new Cli.Run(17, "", "UNAUTHENTICATED: rpcx.reflection.v1.Reflection/describe failed on "
            + address + ": invalid credentials (rpcx's look-up of the description of service"
            + " 'headers' in the server's reflection service)\n"),
        Cli.run("call", address, "headers/header", "[\"tenant\"]", "--token", "wrong"));
    assertEquals(
        new Cli.Run(17, "", "UNAUTHENTICATED: rpcx.reflection.v1.Reflection/listServices failed on "
            + address + ": missing credentials: the call has no 'authorization' metadata (rpcx's"
            + " look-up of the list of services in the server's reflection service)\n"),
        Cli.run("list", address));
  }

  @Test
  void anEmptyMetadataKeyIsAUsageError() {
    Cli.Run run = Cli.run("list", address, "-H", "=1");
    assertEquals(2, run.exit(), run::toString);
    assertEquals("", run.out());
    assertEquals(1, run.err().lines().count(), run::toString);
  }
}
