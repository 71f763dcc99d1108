package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.annotation.Idempotent;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.core.BadRequestException;
import io.rpcx.core.InternalErrorException;
import io.rpcx.core.NotFoundException;
import io.rpcx.core.RemoteFailureException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.UnavailableException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.testing.RpcxExtension;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Each kind of failure reaches the caller as its own exception, naming service, method, server. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ErrorsTest {
  /** What this class's tests may log: the failures it provokes. */
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
          "WARN [\\w.]+/\\w+ threw java\\.lang\\.IllegalStateException: [^\\[]* \\(for [^)]+\\)"
              + " \\[java\\.lang\\.IllegalStateException: [^\\]]*\\]",
          "WARN receipts/issue ran, but its result could not be encoded: .*");
    } finally {
      logs.close();
    }
  }

  private static final ControlledService.Impl controlled = new ControlledService.Impl();
  private static final ReceiptsImpl receipts = new ReceiptsImpl();

  @RegisterExtension
  static final RpcxExtension rpcx =
      RpcxExtension.withServices(
              new EchoService.Impl(), new ValuesService.Impl(), controlled, receipts)
          .client(client -> client.maxAttempts(3));

  /** A record whose accessor refuses to give out its id. */
  record Receipt(String id) {
    @Override
    public String id() {
      throw new IllegalStateException("the id is redacted");
    }
  }

  @RPCXClient(name = "receipts")
  @Idempotent
  interface Receipts {
    Receipt issue(String order);
  }

  /** Issues receipts that cannot be encoded, and counts them. */
  @RPCXServer(name = "receipts")
  static final class ReceiptsImpl implements Receipts {
    final AtomicInteger issued = new AtomicInteger();

    @Override
    public Receipt issue(String order) {
      issued.incrementAndGet();
      return new Receipt(order);
    }
  }

  @RPCXClient(name = "nowhere")
  interface MissingService {
    String ping();
  }

  @RPCXClient(name = "echo")
  interface MissingMethod {
    String absent(String text);
  }

  @RPCXClient(name = "echo")
  interface WrongParameterType {
    String echo(int number);
  }

  @RPCXClient(name = "echo")
  interface WrongParameterCount {
    String echo(String text, String extra);
  }

  @Test
  void anUnknownServiceIsNotFound() {
    NotFoundException e =
        assertThrows(NotFoundException.class, () -> rpcx.create(MissingService.class).ping());
    assertEquals(StatusCode.NOT_FOUND, e.status());
    assertEquals(
        "nowhere/ping failed on 127.0.0.1:" + rpcx.port() + ": unknown service 'nowhere'",
        e.getMessage());
  }

  @Test
  void anUnknownMethodIsNotFound() {
    NotFoundException e =
        assertThrows(NotFoundException.class, () -> rpcx.create(MissingMethod.class).absent("x"));
    assertEquals(
        "echo/absent failed on 127.0.0.1:" + rpcx.port() + ": service 'echo' has no method"
            + " 'absent'",
        e.getMessage());
  }

  @Test
  void anExceptionOfTheImplementationArrivesWithItsClassAndMessage() {
    RemoteFailureException e =
        assertThrows(
            RemoteFailureException.class, () -> rpcx.create(ControlledService.class).fail("boom"));
    assertEquals("java.lang.IllegalStateException", e.remoteClassName());
    assertEquals(
        "controlled/fail on 127.0.0.1:" + rpcx.port()
            + " threw java.lang.IllegalStateException: boom",
        e.getMessage());
    assertEquals("still serving", rpcx.create(EchoService.class).echo("still serving"));
  }

  @Test
  void aDeclaredCheckedExceptionIsThrownAsItself() {
    ControlledService.RejectedException e =
        assertThrows(
            ControlledService.RejectedException.class,
            () -> rpcx.create(ControlledService.class).reject("not today"));
    assertEquals("not today", e.getMessage());
  }

  @Test
  void anArgumentOfTheWrongTypeIsABadRequest() {
    BadRequestException e =
        assertThrows(
            BadRequestException.class, () -> rpcx.create(WrongParameterType.class).echo(42));
    assertEquals(
        "echo/echo failed on 127.0.0.1:" + rpcx.port() + ": argument 0 (text) of echo/echo: the"
            + " client sent type 'int32' but the server expects 'string'",
        e.getMessage());
  }

  @Test
  void theWrongNumberOfArgumentsIsABadRequest() {
    BadRequestException e =
        assertThrows(
            BadRequestException.class,
            () -> rpcx.create(WrongParameterCount.class).echo("a", "b"));
    assertEquals(
        "echo/echo failed on 127.0.0.1:" + rpcx.port() + ": echo/echo takes 1 argument but the"
            + " request has 2",
        e.getMessage());
  }

  @Test
  @SuppressWarnings({"unchecked", "rawtypes"})
  void anArgumentThatCannotBeEncodedFailsBeforeAnythingIsSent() {
    int before = controlled.startedCount();
    List notStrings = List.of(1, 2);
    BadRequestException e =
        assertThrows(
            BadRequestException.class, () -> rpcx.create(ValuesService.class).list(notStrings));
    assertTrue(
        e.getMessage().startsWith("cannot encode the arguments of values/list: "), e.getMessage());
    assertEquals(before, controlled.startedCount());
    assertFalse(e.getMessage().isEmpty());
    assertEquals("fine", rpcx.create(EchoService.class).echo("fine"));
  }

  @Test
  void aResultThatCannotBeEncodedSaysTheMethodRanAndIsNeverRetried() {
    int before = receipts.issued.get();
    InternalErrorException e =
        assertThrows(
            InternalErrorException.class, () -> rpcx.create(Receipts.class).issue("order-1"));
    assertEquals(
        "receipts/issue failed on 127.0.0.1:" + rpcx.port() + ": receipts/issue ran, but its"
            + " result could not be encoded: the accessor method Receipt.id() of record "
            + Receipt.class.getName() + " threw java.lang.IllegalStateException: the id is"
            + " redacted",
        e.getMessage());
    assertEquals(1, receipts.issued.get() - before, "an idempotent method still ran once");
  }

  @Test
  void implementationsRunOnTheServerExecutorNotOnANetworkThread() {
    String thread = rpcx.create(ControlledService.class).threadName();
    // The worker pool before Java 24, a virtual thread per call from Java 24 on.
    String expected =
        Runtime.version().feature() >= 24 ? "rpcx-server-virtual-" : "rpcx-server-worker-";
    assertTrue(thread.startsWith(expected), thread);
  }

  @Test
  void aServerThatCannotBeReachedIsUnavailable() throws Exception {
    int port;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    try (io.rpcx.client.RpcxClient client =
        io.rpcx.client.RpcxClient.builder().target("127.0.0.1", port).build()) {
      UnavailableException e =
          assertThrows(UnavailableException.class, () -> client.create(EchoService.class).echo("x"));
      assertTrue(e.isSafeToRetry());
      assertTrue(e.getMessage().contains("cannot connect to 127.0.0.1:" + port), e.getMessage());
    }
  }
}
