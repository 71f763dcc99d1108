package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.UnauthenticatedException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import io.rpcx.server.ServerInterceptors;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A token check runs before any argument is decoded, refuses clearly, and never logs the token. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AuthenticationTest {
  private static final String TOKEN = "s3cr3t-t0ken-4f9a";

  private final List<String> order = new ArrayList<>();
  private RpcxServer server;
  private LogCapture logs;

  @RPCXClient(name = "echo")
  interface WrongParameterType {
    String echo(int number);
  }

  @BeforeEach
  void start() {
    logs = LogCapture.rpcx();
    server =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .service(new EchoService.Impl())
            .intercept(
                (call, next) -> {
                  synchronized (order) {
                    order.add("first:" + call.method().service() + "." + call.method().method());
                  }
                  return next.proceed();
                })
            .intercept(ServerInterceptors.bearerToken(TOKEN::equals))
            .build()
            .start();
  }

  @AfterEach
  void stop() {
    server.stop();
    String everything = logs.all();
    logs.close();
    assertFalse(everything.contains(TOKEN), "a token appeared in the logs:\n" + everything);
  }

  private RpcxClient client(String token) {
    RpcxClient.Builder builder = RpcxClient.builder().target("127.0.0.1", server.port());
    if (token != null) {
      builder.bearerToken(token);
    }
    return builder.build();
  }

  @Test
  void aCallWithTheRightTokenIsServed() {
    try (RpcxClient client = client(TOKEN)) {
      assertEquals("welcome", client.create(EchoService.class).echo("welcome"));
      assertEquals(List.of("first:echo.echo"), order, "interceptors run in the order added");
    }
  }

  @Test
  void aCallWithoutATokenIsUnauthenticated() {
    try (RpcxClient client = client(null)) {
      UnauthenticatedException e =
          assertThrows(UnauthenticatedException.class, () -> client.create(EchoService.class).echo("x"));
      assertEquals(
          "echo/echo failed on 127.0.0.1:" + server.port()
              + ": missing credentials: the call has no 'authorization' metadata",
          e.getMessage());
    }
  }

  @Test
  void aCallWithAWrongTokenIsUnauthenticatedAndTheTokenIsNotEchoed() {
    try (RpcxClient client = client("guess-" + TOKEN.substring(0, 4))) {
      UnauthenticatedException e =
          assertThrows(UnauthenticatedException.class, () -> client.create(EchoService.class).echo("x"));
      assertEquals("echo/echo failed on 127.0.0.1:" + server.port() + ": invalid credentials", e.getMessage());
    }
  }

  @Test
  void theCheckRunsBeforeTheArgumentsAreDecoded() throws Exception {
    try (RpcxClient client = client(null)) {
      // Arguments the server could not decode: still refused for the missing token first.
      assertThrows(UnauthenticatedException.class, () -> client.create(WrongParameterType.class).echo(3));
      CompletableFuture<String> async = client.create(EchoService.class).echoAsync("x");
      java.util.concurrent.ExecutionException e =
          assertThrows(java.util.concurrent.ExecutionException.class, () -> async.get(5, TimeUnit.SECONDS));
      assertEquals(UnauthenticatedException.class, e.getCause().getClass());
    }
  }
}
