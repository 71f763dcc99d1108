package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.internal.codec.ByteArrayProtoWriter;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.model.StandardCodecs;
import io.rpcx.core.internal.protocol.FrameType;
import io.rpcx.core.internal.protocol.Preface;
import io.rpcx.core.internal.protocol.RequestWriter;
import io.rpcx.core.internal.protocol.proto.GoAway;
import io.rpcx.core.internal.protocol.proto.RPCXReply;
import io.rpcx.core.internal.protocol.proto.StatusCode;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.net.ConnectException;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The service center starts, reports, and stops without losing the calls it accepted. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@SuppressWarnings({"try", "rawtypes"}) // scopes held open for their bodies; arrays of codecs of generic types
class ServerLifecycleTest {

  @Test
  void aServerOnPortZeroReportsItsRealPortAndServices() {
    RpcxServer server =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .service(new ValuesService.Impl())
            .service(new EchoService.Impl())
            .build();
    IllegalStateException notStarted = assertThrows(IllegalStateException.class, server::port);
    assertEquals("the server has not been started", notStarted.getMessage());
    server.start();
    try {
      assertTrue(server.port() > 0);
      assertTrue(server.isRunning());
      assertEquals(List.of("echo", "values"), server.services());
      IllegalStateException twice = assertThrows(IllegalStateException.class, server::start);
      assertEquals("the server was already started (state: RUNNING)", twice.getMessage());
    } finally {
      server.stop();
    }
    assertFalse(server.isRunning());
  }

  @Test
  void aServerWithoutServicesIsRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RpcxServer.builder().build());
    assertEquals(
        "no service to publish: call service(...) or scan(...) on the builder", e.getMessage());
  }

  @Test
  void twoServicesUnderOneNameAreRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                RpcxServer.builder()
                    .service(new EchoService.Impl())
                    .service("echo", new ValuesService.Impl())
                    .build());
    assertEquals(
        "service name 'echo' is published twice: by io.rpcx.testsuite.EchoService$Impl and by"
            + " io.rpcx.testsuite.ValuesService$Impl",
        e.getMessage());
  }

  @Test
  void stopLetsCallsInFlightFinishAndRefusesNewConnections() throws Exception {
    ControlledService.Impl service = new ControlledService.Impl();
    service.holdNext(20);
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(service).build().start();
    int port = server.port();
    try (RpcxClient client =
        RpcxClient.builder().target("127.0.0.1", port).defaultTimeout(Duration.ofSeconds(20)).build()) {
      ControlledService controlled = client.create(ControlledService.class);
      List<CompletableFuture<String>> calls = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        String text = "in-flight-" + i;
        calls.add(CompletableFuture.supplyAsync(() -> controlled.hold(text), ThreadPerTask.EXECUTOR));
      }
      assertTrue(service.awaitHeld(10));
      CompletableFuture<Void> stopping = CompletableFuture.runAsync(() -> server.stop(Duration.ofSeconds(20)), ThreadPerTask.EXECUTOR);
      awaitRefusingConnections(port);
      assertFalse(stopping.isDone(), "stop waits for the calls in flight");

      UnavailableException refused =
          assertThrows(UnavailableException.class, () -> client.create(EchoService.class).echo("new"));
      assertTrue(refused.isSafeToRetry(), "a call made after the goaway was never processed");

      service.release();
      for (int i = 0; i < 20; i++) {
        assertEquals("in-flight-" + i, calls.get(i).get(10, TimeUnit.SECONDS));
      }
      stopping.get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void theStopLogLineSaysHowManyCallsItWaitedForAndHowLong() throws Exception {
    ControlledService.Impl service = new ControlledService.Impl();
    try (LogCapture logs = LogCapture.of(RpcxServer.class)) {
      RpcxServer idle =
          RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(service).build().start();
      idle.stop();
      assertStopLine(logs, idle, "no calls were in flight");

      RpcxServer busy =
          RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(service).build().start();
      try (RpcxClient client =
          RpcxClient.builder().target("127.0.0.1", busy.port()).defaultTimeout(Duration.ofSeconds(20)).build()) {
        ControlledService controlled = client.create(ControlledService.class);
        service.holdNext(3);
        List<CompletableFuture<String>> calls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
          calls.add(CompletableFuture.supplyAsync(() -> controlled.hold("held"), ThreadPerTask.EXECUTOR));
        }
        assertTrue(service.awaitHeld(10));
        CompletableFuture<Void> stopping =
            CompletableFuture.runAsync(() -> busy.stop(Duration.ofSeconds(20)), ThreadPerTask.EXECUTOR);
        awaitRefusingConnections(busy.port());
        service.release();
        for (CompletableFuture<String> call : calls) {
          assertEquals("held", call.get(10, TimeUnit.SECONDS));
        }
        stopping.get(10, TimeUnit.SECONDS);
      }
      assertStopLine(logs, busy, "waited for 3 calls in flight, all finished");

      ControlledService.Impl stuck = new ControlledService.Impl();
      RpcxServer late =
          RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(stuck).build().start();
      try (RpcxClient client =
          RpcxClient.builder().target("127.0.0.1", late.port()).defaultTimeout(Duration.ofSeconds(20)).build()) {
        stuck.holdNext(1);
        CompletableFuture<String> call =
            CompletableFuture.supplyAsync(
                () -> client.create(ControlledService.class).hold("stuck"), ThreadPerTask.EXECUTOR);
        assertTrue(stuck.awaitHeld(10));
        late.stop(Duration.ofMillis(200));
        stuck.release();
        assertThrows(Exception.class, () -> call.get(10, TimeUnit.SECONDS));
      }
      assertEquals(
          List.of("WARN Grace period of 200 ms ended with 1 calls still running; closing connections"),
          logs.lines(RpcxServer.class.getName(), Level.WARN));
      assertStopLine(
          logs, late, "waited for 1 call in flight; 1 still running when the grace period of 200 ms ended");
    }
  }

  /** The server logged that it stopped, how long it took, and {@code waited}. */
  private static void assertStopLine(LogCapture logs, RpcxServer server, String waited) {
    String prefix = "INFO RPCX server on /127.0.0.1:" + server.port() + " stopped in ";
    List<String> lines =
        logs.lines(RpcxServer.class.getName(), Level.INFO).stream()
            .filter(line -> line.startsWith(prefix))
            .toList();
    assertEquals(1, lines.size(), logs::all);
    assertTrue(lines.get(0).matches("\\Q" + prefix + "\\E\\d+ ms: \\Q" + waited + "\\E"), lines.get(0));
  }

  @Test
  void aConnectionStillInItsHandshakeWhenTheServerStopsIsToldToGoAwayAfterThePrefaces()
      throws Exception {
    ControlledService.Impl service = new ControlledService.Impl();
    service.holdNext(1);
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(service).build().start();
    int port = server.port();
    try (RpcxClient client = RpcxClient.builder().target("127.0.0.1", port).build();
        RawConnection raw = new RawConnection(port)) { // connected, no preface sent yet
      CompletableFuture<String> held =
          CompletableFuture.supplyAsync(
              () -> client.create(ControlledService.class).hold("held"), ThreadPerTask.EXECUTOR);
      assertTrue(service.awaitHeld(10));
      CompletableFuture<Void> stopping =
          CompletableFuture.runAsync(() -> server.stop(Duration.ofSeconds(20)), ThreadPerTask.EXECUTOR);
      awaitRefusingConnections(port); // GOAWAY went out before the port closed

      raw.send(Preface.bytes());
      assertArrayEquals(Preface.bytes(), raw.readPreface(), "the server's preface comes first, intact");
      RawConnection.Frame goAway = raw.readFrame();
      assertEquals(FrameType.GOAWAY, goAway.type);
      assertEquals("the server is shutting down", GoAway.parseFrom(goAway.payload).getMessage());

      service.release();
      assertEquals("held", held.get(10, TimeUnit.SECONDS));
      raw.close(); // as a client does once told to go away; stop waits for that
      stopping.get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aRequestArrivingAfterTheGoawayIsRefusedAsNotProcessed() throws Exception {
    ControlledService.Impl service = new ControlledService.Impl();
    service.holdNext(1);
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(service).build().start();
    try (RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build();
        RawConnection raw = new RawConnection(server.port()).handshake()) {
      CompletableFuture<String> held =
          CompletableFuture.supplyAsync(() -> client.create(ControlledService.class).hold("held"), ThreadPerTask.EXECUTOR);
      assertTrue(service.awaitHeld(10));
      CompletableFuture<Void> stopping = CompletableFuture.runAsync(() -> server.stop(Duration.ofSeconds(20)), ThreadPerTask.EXECUTOR);

      RawConnection.Frame goAway = raw.readFrame();
      assertEquals(FrameType.GOAWAY, goAway.type);
      assertEquals(StatusCode.OK, GoAway.parseFrom(goAway.payload).getCode());
      assertEquals("the server is shutting down", GoAway.parseFrom(goAway.payload).getMessage());

      raw.sendFrame(FrameType.REQUEST, request(7, "controlled", "started"));
      RawConnection.Frame reply = raw.readFrame();
      RPCXReply parsed = RPCXReply.parseFrom(reply.payload);
      assertEquals(7, parsed.getRequestId());
      assertEquals(StatusCode.UNAVAILABLE, parsed.getError().getCode());
      assertEquals(
          "the server is shutting down; controlled/started was not processed",
          parsed.getError().getMessage());
      raw.close();

      service.release();
      assertEquals("held", held.get(10, TimeUnit.SECONDS));
      stopping.get(10, TimeUnit.SECONDS);
    } finally {
      server.stop(Duration.ZERO);
    }
  }

  @Test
  void stopsFromTwoThreadsAtOnceBothReturnOnceTheServerIsTerminated() throws Exception {
    ControlledService.Impl service = new ControlledService.Impl();
    service.holdNext(1);
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(service).build().start();
    try (RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      CompletableFuture<String> held =
          CompletableFuture.supplyAsync(
              () -> client.create(ControlledService.class).hold("held"), ThreadPerTask.EXECUTOR);
      assertTrue(service.awaitHeld(10));
      CompletableFuture<Void> first =
          CompletableFuture.runAsync(
              () -> server.stop(Duration.ofSeconds(30)), ThreadPerTask.EXECUTOR);
      while (server.isRunning()) {
        Thread.onSpinWait();
      }
      // The second stop waits for the first, which must still be able to finish.
      CompletableFuture<Void> second =
          CompletableFuture.runAsync(server::stop, ThreadPerTask.EXECUTOR);
      service.release();
      assertEquals("held", held.get(10, TimeUnit.SECONDS));
      first.get(10, TimeUnit.SECONDS);
      second.get(10, TimeUnit.SECONDS);
      assertFalse(server.isRunning());
    } finally {
      service.release();
    }
  }

  @Test
  void aClientsGoawayEndsItsConnectionOnceItsCallsAreAnsweredAndLaterRequestsAreRefused()
      throws Exception {
    ControlledService.Impl service = new ControlledService.Impl();
    service.holdNext(1);
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").port(0).service(service)
            .service(new EchoService.Impl()).build().start();
    try (Bystander bystander = new Bystander(server.port());
        RawConnection raw = new RawConnection(server.port()).handshake()) {
      raw.sendFrame(FrameType.REQUEST, request(1, "controlled", "hold", "held"));
      assertTrue(service.awaitHeld(10));
      raw.sendFrame(
          FrameType.GOAWAY,
          GoAway.newBuilder().setCode(StatusCode.OK).setMessage("closing").build().toByteArray());
      raw.sendFrame(FrameType.REQUEST, request(2, "controlled", "started"));

      RPCXReply refused = RPCXReply.parseFrom(raw.readFrame().payload);
      assertEquals(2, refused.getRequestId());
      assertEquals(StatusCode.UNAVAILABLE, refused.getError().getCode());
      assertEquals(
          "the client sent GOAWAY, promising no more calls on this connection;"
              + " controlled/started was not processed",
          refused.getError().getMessage());

      service.release();
      RPCXReply answered = RPCXReply.parseFrom(raw.readFrame().payload);
      assertEquals(1, answered.getRequestId());
      assertFalse(answered.hasError());
      assertTrue(raw.closedByServer(), "closed once its last call was answered");
      bystander.awaitProgress();
      assertEquals(0, bystander.errors());
    } finally {
      service.release();
      server.stop();
    }
  }

  @Test
  void implementationsMayRunOnTheNetworkThreadsWhenAsked() {
    RpcxServer server =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .service(new ControlledService.Impl())
            .directExecutor()
            .build()
            .start();
    try (RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      assertTrue(
          client.create(ControlledService.class).threadName().startsWith("rpcx-server-io"));
    } finally {
      server.stop();
    }
  }

  /** An RPCXRequest without arguments, encoded with RPCX's own request writer. */
  static byte[] request(int id, String service, String method) throws Exception {
    byte[] names = RequestWriter.nameFields(service, method);
    @SuppressWarnings("unchecked")
    ValueCodec<Object>[] none = new ValueCodec[0];
    ByteArrayProtoWriter out = new ByteArrayProtoWriter();
    RequestWriter.write(out, id, names, new byte[0][], none, new Object[0], 0, Map.of(), null);
    return out.toByteArray();
  }

  /** An RPCXRequest with one string argument, encoded with RPCX's own request writer. */
  @SuppressWarnings("unchecked")
  static byte[] request(int id, String service, String method, String argument) throws Exception {
    ValueCodec<Object> string =
        (ValueCodec<Object>) io.rpcx.core.internal.model.StandardCodecs.registry().codecFor(String.class);
    ByteArrayProtoWriter out = new ByteArrayProtoWriter();
    RequestWriter.write(
        out, id, RequestWriter.nameFields(service, method),
        new byte[][] {RequestWriter.typeField("string")}, new ValueCodec[] {string},
        new Object[] {argument}, 0, Map.of(), null);
    return out.toByteArray();
  }

  private static void awaitRefusingConnections(int port) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      try (Socket socket = new Socket("127.0.0.1", port)) {
        Thread.sleep(10);
      } catch (ConnectException e) {
        return;
      } catch (java.io.IOException e) {
        return;
      }
    }
    throw new AssertionError("the server kept accepting connections");
  }
}
