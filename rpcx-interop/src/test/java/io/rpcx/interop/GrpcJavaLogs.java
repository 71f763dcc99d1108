package io.rpcx.interop;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
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

  /**
   * Waits until a line contains {@code text}, at most 10 seconds (grpc-java logs on its own
   * threads, often after what the test sees); returns whether one did.
   */
  boolean awaitLine(String text) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (messages.stream().noneMatch(line -> line.contains(text))) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(10);
    }
    return true;
  }

  @Override
  public void close() {
    logger.removeHandler(handler);
    logger.setUseParentHandlers(parentHandlers);
  }
}
