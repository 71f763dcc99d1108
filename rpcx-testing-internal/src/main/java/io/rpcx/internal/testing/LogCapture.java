package io.rpcx.internal.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.LoggerFactory;

/**
 * Captures what the loggers under some names log, at every level, while open, instead of printing
 * it: a test that provokes an error asserts the lines it provoked, and a passing build reads as
 * passing. The captured loggers are cut off from their parents' appenders (the console) until
 * {@link #close}, which puts back their levels and additivity. Every module's tests have it (test
 * scope); Logback is their SLF4J provider. Thread-safe for the events it collects; open and close it
 * on one thread.
 *
 * <pre>
 * try (LogCapture logs = LogCapture.of("io.rpcx")) {
 *   ... provoke the failure ...
 *   assertEquals(List.of("WARN Closing connection from ...: ..."), logs.lines(Level.WARN));
 * }
 * </pre>
 */
public final class LogCapture implements AutoCloseable {
  private final List<Logger> loggers = new ArrayList<>();
  private final List<Level> previousLevels = new ArrayList<>();
  private final List<Boolean> previousAdditivity = new ArrayList<>();
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  private LogCapture(Level threshold, String... names) {
    if (names.length == 0) {
      throw new IllegalArgumentException("names: none (expected: at least one logger name)");
    }
    appender.start();
    for (String name : names) {
      Logger logger = (Logger) LoggerFactory.getLogger(name);
      loggers.add(logger);
      previousLevels.add(logger.getLevel());
      previousAdditivity.add(logger.isAdditive());
      logger.addAppender(appender);
      logger.setAdditive(false);
      logger.setLevel(threshold);
    }
  }

  /**
   * Captures everything the loggers named {@code names} and those under them ({@code "io.rpcx"},
   * ...) log, down to TRACE.
   */
  public static LogCapture of(String... names) {
    return new LogCapture(Level.TRACE, names);
  }

  /**
   * Captures what the loggers named {@code names} and those under them log at WARN or above, and
   * leaves their lower levels off, as a test's console has them: for a capture around whole test
   * classes, whose calls should cost no more than they do uncaptured.
   */
  public static LogCapture warnings(String... names) {
    return new LogCapture(Level.WARN, names);
  }

  /** Captures the loggers of {@code types}, each named after its class. */
  public static LogCapture of(Class<?>... types) {
    String[] names = new String[types.length];
    for (int i = 0; i < types.length; i++) {
      names[i] = types[i].getName();
    }
    return of(names);
  }

  /** Captures everything RPCX logs. */
  public static LogCapture rpcx() {
    return of("io.rpcx");
  }

  /** The events captured so far, in the order they were logged. */
  public List<ILoggingEvent> events() {
    synchronized (appender) {
      return List.copyOf(appender.list);
    }
  }

  /**
   * The events at {@code level} or above, each as its level, its message and, if it carries an
   * exception, {@code " [" + the exception's class and message + "]"}.
   */
  public List<String> lines(Level level) {
    return events().stream()
        .filter(event -> event.getLevel().isGreaterOrEqual(level))
        .map(LogCapture::line)
        .collect(Collectors.toList());
  }

  /** Same as {@link #lines(Level)}, of the logger {@code name} only. */
  public List<String> lines(String name, Level level) {
    return events().stream()
        .filter(event -> event.getLoggerName().equals(name))
        .filter(event -> event.getLevel().isGreaterOrEqual(level))
        .map(LogCapture::line)
        .collect(Collectors.toList());
  }

  /**
   * Waits until at least {@code count} events at {@code level} or above were captured, at most 10
   * seconds (the events a test provokes are often logged on another thread, after what the test
   * sees); returns {@link #lines(Level)}, with fewer lines if the time ran out.
   */
  public List<String> await(Level level, int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    List<String> lines = lines(level);
    while (lines.size() < count && System.nanoTime() < deadline) {
      Thread.sleep(10);
      lines = lines(level);
    }
    return lines;
  }

  /**
   * Waits until a line at {@code level} or above matches {@code pattern} (a regular expression of
   * the whole line), at most 10 seconds; returns whether one did.
   */
  public boolean awaitLine(Level level, String pattern) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (lines(level).stream().noneMatch(line -> line.matches(pattern))) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(10);
    }
    return true;
  }

  /**
   * Asserts what was logged at {@code level} or above: exactly {@code expected} lines ({@link
   * #lines(Level)}), in that order, waiting up to 10 seconds for them (see {@link #await}).
   *
   * @throws AssertionError naming what was logged instead
   */
  public void assertLines(Level level, String... expected) throws InterruptedException {
    List<String> lines = await(level, expected.length);
    if (!lines.equals(List.of(expected))) {
      throw new AssertionError(
          "expected these lines at " + level + " or above:\n  " + String.join("\n  ", expected)
              + "\nbut the log had:\n  " + String.join("\n  ", lines));
    }
  }

  /**
   * Asserts what was logged at {@code level} or above when the count is not known: every line
   * ({@link #lines(Level)}) matches one of {@code patterns} (regular expressions of the whole
   * line), and each pattern matched at least one line, waiting up to 10 seconds for that.
   *
   * @throws AssertionError naming the lines no pattern matches, or the patterns nothing matched
   */
  public void assertMatching(Level level, String... patterns) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    List<String> unmatched;
    List<String> unused;
    while (true) {
      List<String> lines = lines(level);
      unmatched = new ArrayList<>();
      unused = new ArrayList<>(List.of(patterns));
      for (String line : lines) {
        boolean matched = false;
        for (String pattern : patterns) {
          if (line.matches(pattern)) {
            matched = true;
            unused.remove(pattern);
          }
        }
        if (!matched) {
          unmatched.add(line);
        }
      }
      if (!unmatched.isEmpty() || unused.isEmpty() || System.nanoTime() > deadline) {
        break;
      }
      Thread.sleep(10);
    }
    if (!unmatched.isEmpty() || !unused.isEmpty()) {
      throw new AssertionError(
          (unmatched.isEmpty() ? "" : "logged, and matching none of the patterns:\n  "
              + String.join("\n  ", unmatched) + "\n")
              + (unused.isEmpty() ? "" : "no line at " + level + " or above matches:\n  "
                  + String.join("\n  ", unused) + "\n")
              + "the log:\n  " + all().replace("\n", "\n  "));
    }
  }

  /**
   * Asserts that every line logged at {@code level} or above so far matches one of {@code
   * patterns}: what a test may provoke, and nothing else (none may be logged at all).
   *
   * @throws AssertionError naming the lines no pattern matches
   */
  public void assertOnly(Level level, String... patterns) {
    List<String> unmatched =
        lines(level).stream()
            .filter(line -> List.of(patterns).stream().noneMatch(line::matches))
            .collect(Collectors.toList());
    if (!unmatched.isEmpty()) {
      throw new AssertionError(
          "logged at " + level + " or above, and expected by no pattern:\n  "
              + String.join("\n  ", unmatched));
    }
  }

  /** The messages (with their exceptions' message) of the events at {@code level} or above. */
  public List<String> messages(Level level) {
    return events().stream()
        .filter(event -> event.getLevel().isGreaterOrEqual(level))
        .map(
            event ->
                event.getFormattedMessage()
                    + (event.getThrowableProxy() == null
                        ? ""
                        : " " + event.getThrowableProxy().getMessage()))
        .collect(Collectors.toList());
  }

  /**
   * The messages (without their exceptions) logged at WARN or above that contain {@code text}, in
   * order: the warnings of one kind among others a test may provoke.
   */
  public List<String> warningsContaining(String text) {
    return events().stream()
        .filter(event -> event.getLevel().isGreaterOrEqual(Level.WARN))
        .map(ILoggingEvent::getFormattedMessage)
        .filter(message -> message.contains(text))
        .collect(Collectors.toList());
  }

  /**
   * The events of the logger {@code name} at {@code level} or above, each as its level, its
   * message and, if it carries an exception, {@code " [stack trace]"}.
   */
  public List<String> events(String name, Level level) {
    return events().stream()
        .filter(event -> event.getLoggerName().equals(name))
        .filter(event -> event.getLevel().isGreaterOrEqual(level))
        .map(
            event ->
                event.getLevel() + " " + event.getFormattedMessage()
                    + (event.getThrowableProxy() == null ? "" : " [stack trace]"))
        .collect(Collectors.toList());
  }

  /** The class names of the exceptions logged, with their causes. */
  public List<String> throwableClasses() {
    List<String> classes = new ArrayList<>();
    for (ILoggingEvent event : events()) {
      for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
        classes.add(t.getClassName());
      }
    }
    return classes;
  }

  /** Everything captured, one line per event (its level and message), for failure messages. */
  public String all() {
    return String.join("\n", lines(Level.TRACE));
  }

  @Override
  public String toString() {
    return all();
  }

  /** Puts the loggers back as they were: their levels, and their output to their parents'. */
  @Override
  public void close() {
    for (int i = 0; i < loggers.size(); i++) {
      Logger logger = loggers.get(i);
      logger.detachAppender(appender);
      logger.setLevel(previousLevels.get(i));
      logger.setAdditive(previousAdditivity.get(i));
    }
    appender.stop();
  }

  private static String line(ILoggingEvent event) {
    IThrowableProxy thrown = event.getThrowableProxy();
    return event.getLevel() + " " + event.getFormattedMessage()
        + (thrown == null ? "" : " [" + thrown.getClassName() + ": " + thrown.getMessage() + "]");
  }
}
