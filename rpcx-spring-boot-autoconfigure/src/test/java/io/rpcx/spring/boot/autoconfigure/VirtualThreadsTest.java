package io.rpcx.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.spring.boot.autoconfigure.greeter.Greeter;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * With {@code spring.threads.virtual.enabled} on Java 21 or later, services run on virtual threads
 * (CI runs this class on the newest JDK of its machine too), and the worker pool's settings are
 * refused; without it, where RPCX runs them by default (virtual threads from Java 24, the pool
 * before), and the pool's settings keep the pool on any Java.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class VirtualThreadsTest {

  @Test
  @EnabledForJreRange(min = JRE.JAVA_21)
  void servicesRunOnVirtualThreads() {
    try (ConfigurableApplicationContext server = Apps.server("spring.threads.virtual.enabled=true");
        ConfigurableApplicationContext client = Apps.client(Apps.port(server))) {
      String thread = client.getBean(Greeter.class).servingThread();
      assertTrue(thread.startsWith("rpcx-server-virtual-") && thread.endsWith("(virtual)"), thread);
    }
  }

  @Test
  @EnabledForJreRange(min = JRE.JAVA_21)
  void theWorkerPoolsSettingsAreRefusedWithVirtualThreads() {
    String action =
        "Set rpcx.server.worker-threads to a value RPCX accepts: no value: with"
            + " spring.threads.virtual.enabled every call runs on a virtual thread of its own, so"
            + " the worker pool's settings do not apply; unset it, or turn virtual threads off.";
    try (LogCapture logs = LogCapture.of("org.springframework", "io.rpcx")) {
      Throwable failure =
          assertThrows(
              Throwable.class,
              () ->
                  Apps.server(
                          "spring.threads.virtual.enabled=true", "rpcx.server.worker-threads=50")
                      .close());
      FailureAnalysis analysis = new InvalidRpcxPropertyFailureAnalyzer(null).analyze(failure);
      assertEquals(action, analysis.getAction());
      // Spring Boot reported it, with that action, instead of the test printing the report.
      List<String> errors = logs.lines(Level.ERROR);
      assertEquals(1, errors.size(), errors::toString);
      assertTrue(
          errors.get(0).contains("APPLICATION FAILED TO START") && errors.get(0).contains(action),
          errors.get(0));
    }
  }

  @Test
  void otherwiseServicesRunWhereRpcxRunsThemByDefault() {
    try (ConfigurableApplicationContext server = Apps.server();
        ConfigurableApplicationContext client = Apps.client(Apps.port(server))) {
      String thread = client.getBean(Greeter.class).servingThread();
      // A virtual thread per call from Java 24, the worker pool before.
      String expected = Runtime.version().feature() >= 24 ? "(virtual)" : "(platform)";
      assertTrue(thread.endsWith(expected), thread);
    }
  }

  @Test
  void theWorkerPoolsSettingsKeepThePoolOnAnyJava() {
    try (ConfigurableApplicationContext server = Apps.server("rpcx.server.worker-threads=50");
        ConfigurableApplicationContext client = Apps.client(Apps.port(server))) {
      String thread = client.getBean(Greeter.class).servingThread();
      assertTrue(thread.startsWith("rpcx-server-worker-") && thread.endsWith("(platform)"), thread);
    }
  }
}
