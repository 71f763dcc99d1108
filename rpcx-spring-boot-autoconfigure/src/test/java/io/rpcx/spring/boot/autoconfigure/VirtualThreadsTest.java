package io.rpcx.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.spring.boot.autoconfigure.greeter.Greeter;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * With {@code spring.threads.virtual.enabled} on Java 21 or later, services run on virtual threads
 * (CI runs this class on JDK 25 too); without it, on the server's worker pool.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class VirtualThreadsTest {

  @Test
  @EnabledForJreRange(min = JRE.JAVA_21)
  void servicesRunOnVirtualThreads() {
    try (ConfigurableApplicationContext server = Apps.server("spring.threads.virtual.enabled=true");
        ConfigurableApplicationContext client = Apps.client(Apps.port(server))) {
      String thread = client.getBean(Greeter.class).servingThread();
      assertTrue(thread.startsWith("rpcx-call-") && thread.endsWith("(virtual)"), thread);
    }
  }

  @Test
  void servicesRunOnTheWorkerPoolOtherwise() {
    try (ConfigurableApplicationContext server = Apps.server();
        ConfigurableApplicationContext client = Apps.client(Apps.port(server))) {
      String thread = client.getBean(Greeter.class).servingThread();
      assertTrue(thread.endsWith("(platform)"), thread);
    }
  }
}
