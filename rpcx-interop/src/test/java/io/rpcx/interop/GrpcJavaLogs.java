package io.rpcx.interop;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Captures what grpc-java logs (through java.util.logging) while open, instead of printing it: a
 * test that makes the peer log asserts the lines.
 */
final class GrpcJavaLogs implements AutoCloseable {
  private final Logger logger = Logger.getLogger("io.grpc");
  private final boolean parentHandlers;
  private final List<String> messages = new CopyOnWriteArrayList<>();
  private final Handler handler =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          messages.add(
              record.getLevel() + " " + record.getMessage()
                  + (record.getThrown() == null ? "" : ": " + record.getThrown().getMessage()));
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  GrpcJavaLogs() {
    parentHandlers = logger.getUseParentHandlers();
    logger.setUseParentHandlers(false);
    logger.addHandler(handler);
    handler.setLevel(Level.ALL);
  }

  /** The lines logged so far: level, message and the exception's message. */
  List<String> messages() {
    return List.copyOf(messages);
  }

  @Override
  public void close() {
    logger.removeHandler(handler);
    logger.setUseParentHandlers(parentHandlers);
  }
}
