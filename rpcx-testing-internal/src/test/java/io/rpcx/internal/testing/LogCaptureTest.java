package io.rpcx.internal.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * What a test captures is not printed: the captured loggers reach no appender of their parents
 * (the console) while the capture is open, and are as they were once it is closed.
 */
class LogCaptureTest {
  private final Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
  /** In place of the root's appenders (the console) while a test runs. */
  private final ListAppender<ILoggingEvent> console = new ListAppender<>();
  private final List<Appender<ILoggingEvent>> rootAppenders = new ArrayList<>();
  private final org.slf4j.Logger provoking = LoggerFactory.getLogger("io.rpcx.example.Provoking");

  @BeforeEach
  void watchTheConsole() {
    root.iteratorForAppenders().forEachRemaining(rootAppenders::add);
    rootAppenders.forEach(root::detachAppender);
    console.start();
    root.addAppender(console);
  }

  @AfterEach
  void putTheConsoleBack() {
    root.detachAppender(console);
    rootAppenders.forEach(root::addAppender);
  }

  @Test
  void whatIsCapturedDoesNotReachTheConsoleUntilTheCaptureIsClosed() {
    Logger rpcx = (Logger) LoggerFactory.getLogger("io.rpcx");
    Level level = rpcx.getLevel();
    try (LogCapture logs = LogCapture.of("io.rpcx")) {
      provoking.warn("Closing connection from {}: frame too large", "/127.0.0.1:5000");
      provoking.debug("details");
      assertEquals(
          List.of(
              "WARN Closing connection from /127.0.0.1:5000: frame too large", "DEBUG details"),
          logs.lines(Level.TRACE));
      assertEquals(List.of(), console.list, "nothing printed");
    }
    assertEquals(level, rpcx.getLevel());
    assertTrue(rpcx.isAdditive());
    provoking.warn("after the capture");
    assertEquals(1, console.list.size(), "printed again once the capture is closed");
  }

  @Test
  void aCaptureOfWarningsLeavesTheLowerLevelsOff() {
    try (LogCapture logs = LogCapture.warnings("io.rpcx")) {
      provoking.debug("details");
      provoking.warn("a warning");
      assertEquals(List.of("WARN a warning"), logs.lines(Level.TRACE));
      assertEquals(List.of(), console.list, "nothing printed");
    }
  }

  @Test
  void assertOnlyNamesWhatNoPatternExpects() {
    try (LogCapture logs = LogCapture.of("io.rpcx")) {
      provoking.warn("expected: 1");
      provoking.error("a surprise", new IllegalStateException("boom"));
      logs.assertOnly(Level.WARN, "WARN expected: \\d", "ERROR a surprise \\[.*\\]");
      AssertionError failure =
          assertThrows(
              AssertionError.class, () -> logs.assertOnly(Level.WARN, "WARN expected: \\d"));
      assertEquals(
          "logged at WARN or above, and expected by no pattern:\n"
              + "  ERROR a surprise [java.lang.IllegalStateException: boom]",
          failure.getMessage());
    }
  }

  @Test
  void assertMatchingAndAssertLinesCheckWhatWasLogged() throws InterruptedException {
    try (LogCapture logs = LogCapture.of("io.rpcx")) {
      provoking.warn("one");
      logs.assertMatching(Level.WARN, "WARN one");
      AssertionError missing =
          assertThrows(AssertionError.class, () -> logs.assertLines(Level.WARN, "WARN two"));
      assertTrue(missing.getMessage().contains("WARN one"), missing.getMessage());
    }
  }
}
