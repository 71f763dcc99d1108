package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.client.ClientCall;
import io.rpcx.client.ClientInterceptor;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.BadRequestException;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.UnavailableException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Every limit is checked before anything is allocated, and an excess is refused at once. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LimitsTest {
  /** What this class's tests may log: the connections and frames over its limits. */
  private static LogCapture logs;

  @BeforeAll
  static void captureLogs() {
    logs = LogCapture.warnings("io.rpcx");
  }

  @AfterAll
  static void onlyWhatTheTestsProvoked() {
    try {
      logs.assertOnly(
          Level.WARN,
          "WARN Closing connection (from /127\\.0\\.0\\.1|to 127\\.0\\.0\\.1):\\d+: frame of"
              + " \\d+ bytes exceeds the limit of \\d+ bytes",
          "WARN Refusing connection from /127\\.0\\.0\\.1:\\d+: \\d+ connections are open"
              + " \\(limit \\d+\\)");
    } finally {
      logs.close();
    }
  }


  @Test
  void anOversizedFrameClosesThatConnectionWithOneWarning() throws Exception {
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").service(new EchoService.Impl())
            .maxFrameSize(64 * 1024).build().start();
    try (Bystander bystander = new Bystander(server.port());
        LogCapture captured = LogCapture.rpcx();
        RawConnection raw = new RawConnection(server.port()).handshake()) {
      String peer = raw.localAddress();
      raw.send(new byte[] {0x10, 0, 0, 0, 1, 0}); // declares 256 MiB
      raw.send(new byte[10_000]);
      assertTrue(raw.closedByServer());
      bystander.awaitProgress();
      List<String> warnings = captured.messages(Level.WARN);
      assertEquals(
          List.of(
              "Closing connection from " + peer + ": frame of 268435456 bytes exceeds the limit"
                  + " of 65536 bytes"),
          warnings);
      assertEquals(0, bystander.errors());
    } finally {
      server.stop();
    }
  }

  @RPCXClient(name = "controlled")
  interface AsyncHolder {
    CompletableFuture<String> holdAsync(String text);
  }

  @Test
  void callsOverTheClientsPerConnectionLimitAreRejectedAtOnce() throws Exception {
    ControlledService.Impl service = new ControlledService.Impl();
    service.holdNext(3);
    RpcxServer server = RpcxServer.builder().bindAddress("127.0.0.1").service(service).build().start();
    try (RpcxClient client =
        RpcxClient.builder().target("127.0.0.1", server.port()).maxConcurrentCallsPerConnection(3).build()) {
      AsyncHolder holder = client.create(AsyncHolder.class);
      List<CompletableFuture<String>> held = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        held.add(holder.holdAsync("held-" + i));
      }
      assertTrue(service.awaitHeld(10));
      ExecutionException e =
          assertThrows(ExecutionException.class, () -> holder.holdAsync("one too many").get(5, TimeUnit.SECONDS));
      assertEquals(ResourceExhaustedException.class, e.getCause().getClass());
      assertEquals(
          "controlled/holdAsync was not sent: 3 calls are already in flight on the connection to"
              + " 127.0.0.1:" + server.port() + " (limit 3)",
          e.getCause().getMessage());
      service.release();
      for (CompletableFuture<String> call : held) {
        call.get(10, TimeUnit.SECONDS);
      }
    } finally {
      service.release();
      server.stop();
    }
  }

  @Test
  void callsOverTheServersPerConnectionLimitAreRefusedAtOnce() throws Exception {
    ControlledService.Impl service = new ControlledService.Impl();
    service.holdNext(2);
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").service(service)
            .maxConcurrentCallsPerConnection(2).build().start();
    try (RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      AsyncHolder holder = client.create(AsyncHolder.class);
      CompletableFuture<String> first = holder.holdAsync("a");
      CompletableFuture<String> second = holder.holdAsync("b");
      assertTrue(service.awaitHeld(10));
      ExecutionException e =
          assertThrows(ExecutionException.class, () -> holder.holdAsync("c").get(5, TimeUnit.SECONDS));
      assertEquals(ResourceExhaustedException.class, e.getCause().getClass());
      assertEquals(
          "controlled/holdAsync failed on 127.0.0.1:" + server.port() + ": too many calls in"
              + " flight on this connection (limit 2); controlled/holdAsync was not processed",
          e.getCause().getMessage());
      service.release();
      assertEquals("a", first.get(10, TimeUnit.SECONDS));
      assertEquals("b", second.get(10, TimeUnit.SECONDS));
    } finally {
      service.release();
      server.stop();
    }
  }

  @Test
  void aConnectionOverTheServersLimitIsToldWhyAndItsCallsAreNotProcessed() throws Exception {
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").service(new EchoService.Impl())
            .maxConnections(1).build().start();
    try (RpcxClient first = RpcxClient.builder().target("127.0.0.1", server.port()).build();
        RpcxClient second = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      assertEquals("first", first.create(EchoService.class).echo("first"));
      UnavailableException e =
          assertThrows(UnavailableException.class, () -> second.create(EchoService.class).echo("second"));
      assertTrue(e.isSafeToRetry());
      assertTrue(
          e.getMessage().contains("the server has too many connections (limit 1)"), e.getMessage());
      assertEquals("still", first.create(EchoService.class).echo("still"));
    } finally {
      server.stop();
    }
  }

  @Test
  void tooMuchMetadataIsRefused() throws Exception {
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").service(new EchoService.Impl())
            .maxMetadataBytes(100).build().start();
    try (RpcxClient client =
        RpcxClient.builder().target("127.0.0.1", server.port()).metadata("note", "x".repeat(500)).build()) {
      ResourceExhaustedException e =
          assertThrows(ResourceExhaustedException.class, () -> client.create(EchoService.class).echo("x"));
      assertTrue(e.getMessage().endsWith("request metadata exceeds 100 bytes"), e.getMessage());
    } finally {
      server.stop();
    }
  }

  @Test
  void tooMuchMetadataFromAClientInterceptorIsRefusedTheSameWay() throws Exception {
    RpcxServer server =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .service(new EchoService.Impl())
            .maxMetadataBytes(100)
            .build()
            .start();
    ClientInterceptor verbose =
        new ClientInterceptor() {
          @Override
          public void onStart(ClientCall call) {
            call.putMetadata("note", "x".repeat(500));
          }
        };
    try (RpcxClient client =
        RpcxClient.builder().target("127.0.0.1", server.port()).intercept(verbose).build()) {
      EchoService echo = client.create(EchoService.class);
      ResourceExhaustedException e =
          assertThrows(ResourceExhaustedException.class, () -> echo.echo("x"));
      assertTrue(e.getMessage().endsWith("request metadata exceeds 100 bytes"), e.getMessage());
    } finally {
      server.stop();
    }
  }

  @Test
  void nestingDeeperThanTheLimitIsABadRequest() throws Exception {
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").service(new ValuesService.Impl())
            .maxNestingDepth(1).build().start();
    try (RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      BadRequestException e =
          assertThrows(
              BadRequestException.class,
              () -> client.create(ValuesService.class).nested(List.of(List.of(1))));
      assertTrue(
          e.getMessage().endsWith(
              "cannot decode argument 0 (value) of values/nested: value nested deeper than 1"
                  + " levels (at list<int32>)"),
          e.getMessage());
    } finally {
      server.stop();
    }
  }

  @Test
  void aRequestOverTheClientsFrameLimitIsNeverSent() throws Exception {
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").service(new EchoService.Impl()).build().start();
    try (RpcxClient client =
        RpcxClient.builder().target("127.0.0.1", server.port()).maxFrameSize(4096).build()) {
      ResourceExhaustedException e =
          assertThrows(
              ResourceExhaustedException.class,
              () -> client.create(EchoService.class).echo("x".repeat(10_000)));
      assertTrue(e.getMessage().contains("over the frame limit of 4096 bytes"), e.getMessage());
    } finally {
      server.stop();
    }
  }

  @Test
  void aReplyOverTheServersFrameLimitIsAnsweredInsteadOfSent() throws Exception {
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1")
            .service(new io.rpcx.examples.server.InfoServiceImpl())
            .maxFrameSize(64 * 1024).build().start();
    try (RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      io.rpcx.examples.api.InfoService infos = client.create(io.rpcx.examples.api.InfoService.class);
      ResourceExhaustedException e =
          assertThrows(ResourceExhaustedException.class, () -> infos.request(1, true));
      assertTrue(
          e.getMessage().matches(
              "infos.request failed on 127.0.0.1:\\d+: the reply is over the frame limit of 65536"
                  + " bytes"),
          e.getMessage());
      assertEquals(1, infos.request(1, false).getId(), "the connection is still fine");
    } finally {
      server.stop();
    }
  }
}
