package io.rpcx.testsuite.virtualthreads;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * The times a virtual thread parked while pinned to its carrier, as the JDK reports them: a JFR
 * recording of {@code jdk.VirtualThreadPinned} with no threshold (the JDK's default reports only
 * pins of 20 ms or more), dumped and read back when the work is done, so no event is missed.
 */
final class PinnedCarriers {
  static final String EVENT = "jdk.VirtualThreadPinned";

  /** Work that may throw. */
  @FunctionalInterface
  interface Work {
    void run() throws Exception;
  }

  private PinnedCarriers() {}

  /** Each pin while {@code work} ran, as its thread and top frames. */
  static List<String> during(Work work) throws Exception {
    Path file = Files.createTempFile("rpcx-pinned", ".jfr");
    try (Recording recording = new Recording()) {
      recording.enable(EVENT).withThreshold(Duration.ZERO).withStackTrace();
      recording.start();
      work.run();
      recording.stop();
      recording.dump(file);
      List<String> pins = new ArrayList<>();
      for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
        if (event.getEventType().getName().equals(EVENT)) {
          pins.add(describe(event));
        }
      }
      return pins;
    } finally {
      delete(file);
    }
  }

  private static String describe(RecordedEvent event) {
    String thread = event.getThread() == null ? "?" : event.getThread().getJavaName();
    String frames =
        event.getStackTrace() == null
            ? "(no stack)"
            : event.getStackTrace().getFrames().stream()
                .limit(12)
                .map(PinnedCarriers::frame)
                .collect(Collectors.joining("\n    at ", "\n    at ", ""));
    // JDK 24+ says what blocked (blockingOperation) and why it pinned (pinnedReason).
    StringBuilder fields = new StringBuilder();
    for (String field : List.of("blockingOperation", "pinnedReason")) {
      if (event.hasField(field)) {
        Object value = event.getValue(field);
        fields.append(", ").append(field).append(": ").append(value);
      }
    }
    return thread + " pinned for " + event.getDuration().toNanos() / 1_000 + " µs" + fields + frames;
  }

  private static String frame(RecordedFrame frame) {
    return frame.getMethod().getType().getName() + "." + frame.getMethod().getName() + ":"
        + frame.getLineNumber();
  }

  private static void delete(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      file.toFile().deleteOnExit();
    }
  }
}
