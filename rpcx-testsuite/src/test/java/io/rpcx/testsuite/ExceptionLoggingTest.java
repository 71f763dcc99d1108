package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ch.qos.logback.classic.Level;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.RemoteFailureException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.ExceptionLogging;
import io.rpcx.server.RpcxServer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a server logs when an implementation throws: by default one DEBUG line for an exception the
 * method declares, and WARN with the stack trace for any other; both configurable, down to off.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ExceptionLoggingTest {
  private static final String LOGGER = "io.rpcx.server.internal.dispatch.ServerCall";

  @Test
  void byDefaultDeclaredExceptionsAreDebugLinesAndOthersWarningsWithTheirStackTrace() {
    List<String> logged = throwBoth(builder -> {});
    assertEquals(
        List.of(
            "DEBUG controlled/reject threw " + ControlledService.RejectedException.class.getName()
                + ": not today (for " + logged.get(2) + ")",
            "WARN controlled/fail threw java.lang.IllegalStateException: boom (for "
                + logged.get(2) + ") [stack trace]"),
        logged.subList(0, 2));
  }

  @Test
  void eachKindCanBeLoggedAtItsOwnLevelWithOrWithoutTheTraceOrNotAtAll() {
    List<String> logged =
        throwBoth(
            builder ->
                builder.exceptionLogging(
                    ExceptionLogging.withStackTrace(org.slf4j.event.Level.INFO),
                    ExceptionLogging.off()));
    assertEquals(
        List.of(
            "INFO controlled/reject threw " + ControlledService.RejectedException.class.getName()
                + ": not today (for " + logged.get(1) + ") [stack trace]"),
        logged.subList(0, 1));
    assertEquals(2, logged.size(), "nothing for the undeclared exception");

    List<String> errors =
        throwBoth(
            builder ->
                builder.exceptionLogging(
                    ExceptionLogging.off(), ExceptionLogging.at(org.slf4j.event.Level.ERROR)));
    assertEquals(
        List.of(
            "ERROR controlled/fail threw java.lang.IllegalStateException: boom (for "
                + errors.get(1) + ")"),
        errors.subList(0, 1));
  }

  /**
   * Calls a method that throws a declared exception, then one that throws an undeclared one, on a
   * server configured by {@code config}; returns what ServerCall logged, then the client's address.
   */
  private static List<String> throwBoth(Consumer<RpcxServer.Builder> config) {
    RpcxServer.Builder builder =
        RpcxServer.builder().bindAddress("127.0.0.1").service(new ControlledService.Impl());
    config.accept(builder);
    RpcxServer server = builder.build().start();
    try (LogCapture logs = LogCapture.rpcx();
        RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      ControlledService service = client.create(ControlledService.class);
      assertThrows(ControlledService.RejectedException.class, () -> service.reject("not today"));
      assertThrows(RemoteFailureException.class, () -> service.fail("boom"));
      server.stop();
      List<String> events = new java.util.ArrayList<>(logs.events(LOGGER, Level.TRACE));
      events.add(clientAddress(server, events));
      return events;
    } finally {
      server.stop();
    }
  }

  /** The client address as the server logged it: what follows "(for " in the first event. */
  private static String clientAddress(RpcxServer server, List<String> events) {
    String first = events.isEmpty() ? "" : events.get(0);
    int at = first.indexOf("(for ");
    return at < 0 ? "?" : first.substring(at + 5, first.indexOf(')', at));
  }
}
