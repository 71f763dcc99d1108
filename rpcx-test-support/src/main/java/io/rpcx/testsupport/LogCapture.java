package io.rpcx.testsupport;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.LoggerFactory;

/**
 * Captures what a logger tree logs while open, for the tests of every module that assert the log
 * lines of the errors they provoke instead of printing them. Only the captured tree is silenced
 * on the console: its events go to the capture alone.
 */
public final class LogCapture implements AutoCloseable {
  private final Logger logger;
  private final Level previous;
  private final boolean previousAdditive;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  /** Captures what the loggers under {@code name} log, at every level. */
  public LogCapture(String name) {
    logger = (Logger) LoggerFactory.getLogger(name);
    previous = logger.getLevel();
    previousAdditive = logger.isAdditive();
    appender.start();
    logger.addAppender(appender);
    logger.setLevel(Level.TRACE); // every level: nothing is below TRACE
    logger.setAdditive(false);
  }

  /** The formatted messages of the events at {@code level} or above, in order. */
  public List<String> messages(Level level) {
    synchronized (appender) { // AppenderBase appends under the appender's lock
      return appender.list.stream()
          .filter(event -> event.getLevel().isGreaterOrEqual(level))
          .map(ILoggingEvent::getFormattedMessage)
          .collect(Collectors.toList());
    }
  }

  /** The messages at WARN or above that contain {@code text}. */
  public List<String> warnings(String text) {
    return messages(Level.WARN).stream().filter(message -> message.contains(text)).toList();
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
    logger.setLevel(previous);
    logger.setAdditive(previousAdditive);
  }
}
