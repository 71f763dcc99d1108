package io.rpcx.testsuite;

import io.rpcx.client.RpcxClient;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A well-behaved client that keeps calling a server from its own connection while a test abuses
 * the server from others; it must see no error at all.
 */
final class Bystander implements AutoCloseable {
  private final RpcxClient client;
  private final Thread thread;
  private final AtomicInteger calls = new AtomicInteger();
  private final AtomicInteger errors = new AtomicInteger();
  private volatile boolean running = true;
  private volatile Throwable firstError;

  Bystander(int port) {
    client =
        RpcxClient.builder().target("127.0.0.1", port).defaultTimeout(Duration.ofSeconds(10)).build();
    EchoService echo = client.create(EchoService.class);
    thread =
        new Thread(
            () -> {
              while (running) {
                String text = "bystander-" + calls.get();
                try {
                  if (!text.equals(echo.echo(text))) {
                    errors.incrementAndGet();
                  }
                } catch (RuntimeException e) {
                  if (firstError == null) {
                    firstError = e;
                  }
                  errors.incrementAndGet();
                }
                calls.incrementAndGet();
              }
            },
            "bystander");
    thread.setDaemon(true);
    thread.start();
  }

  /** Waits for a few more successful calls, so the bystander demonstrably kept going. */
  void awaitProgress() throws InterruptedException {
    int target = calls.get() + 20;
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (calls.get() < target && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
  }

  int calls() {
    return calls.get();
  }

  int errors() {
    return errors.get();
  }

  Throwable firstError() {
    return firstError;
  }

  @Override
  public void close() {
    running = false;
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      client.close();
    }
  }
}
