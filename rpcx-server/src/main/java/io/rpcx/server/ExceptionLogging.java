package io.rpcx.server;

import java.util.Objects;
import org.slf4j.event.Level;

/**
 * How a server logs the exceptions its implementations throw: at which level, with or without the
 * stack trace, or not at all. The client always receives the exception, whatever is logged. Set
 * separately for exceptions a method declares (part of its contract, such as {@code
 * OrderNotFoundException}) and for any other ({@link RpcxServer.Builder#exceptionLogging}).
 * Immutable and thread-safe.
 *
 * <pre>{@code
 * RpcxServer.builder()
 *     .exceptionLogging(ExceptionLogging.off(), ExceptionLogging.withStackTrace(Level.ERROR))
 * }</pre>
 */
public final class ExceptionLogging {
  private static final ExceptionLogging OFF = new ExceptionLogging(null, false);

  private final Level level;
  private final boolean stackTrace;

  private ExceptionLogging(Level level, boolean stackTrace) {
    this.level = level;
    this.stackTrace = stackTrace;
  }

  /** Logs nothing. */
  public static ExceptionLogging off() {
    return OFF;
  }

  /** Logs one line at {@code level}: the method, the client and the exception's class and message. */
  public static ExceptionLogging at(Level level) {
    return new ExceptionLogging(Objects.requireNonNull(level, "level"), false);
  }

  /** Logs at {@code level} with the exception's stack trace. */
  public static ExceptionLogging withStackTrace(Level level) {
    return new ExceptionLogging(Objects.requireNonNull(level, "level"), true);
  }

  /** The level logged at, or {@code null} when off. */
  public Level level() {
    return level;
  }

  /** Whether the stack trace is logged. */
  public boolean includesStackTrace() {
    return stackTrace;
  }

  @Override
  public String toString() {
    return level == null ? "off" : level + (stackTrace ? " with stack trace" : "");
  }
}
