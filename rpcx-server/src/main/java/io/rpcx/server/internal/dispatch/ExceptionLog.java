package io.rpcx.server.internal.dispatch;

import io.rpcx.server.ExceptionLogging;
import org.slf4j.Logger;
import org.slf4j.event.Level;

/**
 * Logs what an implementation threw, as the server was configured: exceptions the method declares
 * one way, any other another. Immutable and thread-safe.
 */
public final class ExceptionLog {
  private final Level declaredLevel;
  private final boolean declaredTrace;
  private final Level otherLevel;
  private final boolean otherTrace;

  /**
   * @param declaredLevel level of exceptions the method declares, {@code null} for none
   * @param otherLevel level of any other exception, {@code null} for none
   */
  public ExceptionLog(
      Level declaredLevel, boolean declaredTrace, Level otherLevel, boolean otherTrace) {
    this.declaredLevel = declaredLevel;
    this.declaredTrace = declaredTrace;
    this.otherLevel = otherLevel;
    this.otherTrace = otherTrace;
  }

  /** The log configured by a server builder's {@code exceptionLogging(declared, other)}. */
  public static ExceptionLog of(ExceptionLogging declared, ExceptionLogging other) {
    return new ExceptionLog(
        declared.level(), declared.includesStackTrace(), other.level(), other.includesStackTrace());
  }

  /** Logs that {@code method} threw {@code thrown} for the client at {@code client}. */
  void log(Logger logger, boolean declared, String method, String client, Throwable thrown) {
    Level level = declared ? declaredLevel : otherLevel;
    if (level == null || !enabled(logger, level)) {
      return;
    }
    String message = method + " threw " + thrown + " (for " + client + ")";
    Throwable cause = (declared ? declaredTrace : otherTrace) ? thrown : null;
    switch (level) {
      case ERROR:
        logger.error(message, cause);
        break;
      case WARN:
        logger.warn(message, cause);
        break;
      case INFO:
        logger.info(message, cause);
        break;
      case DEBUG:
        logger.debug(message, cause);
        break;
      default:
        logger.trace(message, cause);
    }
  }

  private static boolean enabled(Logger logger, Level level) {
    switch (level) {
      case ERROR:
        return logger.isErrorEnabled();
      case WARN:
        return logger.isWarnEnabled();
      case INFO:
        return logger.isInfoEnabled();
      case DEBUG:
        return logger.isDebugEnabled();
      default:
        return logger.isTraceEnabled();
    }
  }
}
