package io.rpcx.interop;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.LoggerFactory;

/**
 * Captures everything RPCX (or another logger tree) logs, at every level, while open, instead of
 * printing it: a test that provokes errors asserts their lines.
 */
final class LogCapture implements AutoCloseable {
  private final Logger logger;
  private final Level previous;
  private final boolean additive;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  LogCapture() {
    this("io.rpcx");
  }

  /** Captures what the loggers under {@code name} log. */
  LogCapture(String name) {
    logger = (Logger) LoggerFactory.getLogger(name);
    previous = logger.getLevel();
    additive = logger.isAdditive();
    appender.start();
    logger.addAppender(appender);
    logger.setLevel(Level.TRACE);
    logger.setAdditive(false);
  }

  /** Formatted messages (with their exceptions' text) of the events at {@code level} or above. */
  List<String> messages(Level level) {
    return appender.list.stream()
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
   * The events of the logger {@code name} at {@code level} or above, each as its level, its
   * message and, if it carries an exception, {@code " [stack trace]"}.
   */
  List<String> events(String name, Level level) {
    return appender.list.stream()
        .filter(event -> event.getLoggerName().equals(name))
        .filter(event -> event.getLevel().isGreaterOrEqual(level))
        .map(
            event ->
                event.getLevel() + " " + event.getFormattedMessage()
                    + (event.getThrowableProxy() == null ? "" : " [stack trace]"))
        .collect(Collectors.toList());
  }

  /** The class names of the exceptions logged, with their causes. */
  List<String> throwableClasses() {
    List<String> classes = new java.util.ArrayList<>();
    for (ILoggingEvent event : appender.list) {
      for (ch.qos.logback.classic.spi.IThrowableProxy t = event.getThrowableProxy();
          t != null;
          t = t.getCause()) {
        classes.add(t.getClassName());
      }
    }
    return classes;
  }

  /** Everything logged, one line per event. */
  String all() {
    return String.join("\n", messages(Level.TRACE));
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
    logger.setLevel(previous);
    logger.setAdditive(additive);
  }
}
