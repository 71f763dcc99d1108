package io.rpcx.spring.boot.autoconfigure.greeter;

import io.rpcx.annotation.RPCXServer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.stereotype.Component;

/**
 * The service, a Spring bean with a dependency; it implements a Spring interface too, which must
 * not be published.
 */
@Component
@RPCXServer(name = "greeter")
public class GreeterImpl implements Greeter, InitializingBean {
  /** Held calls wait for it; a test opens it. */
  public static volatile CountDownLatch gate = new CountDownLatch(0);

  /** Calls that are waiting at the gate. */
  public static final AtomicInteger held = new AtomicInteger();

  private final Salutation salutation;
  private boolean initialized;

  public GreeterImpl(Salutation salutation) {
    this.salutation = salutation;
  }

  @Override
  public void afterPropertiesSet() {
    initialized = true;
  }

  @Override
  public String greet(String name) {
    if (!initialized) {
      throw new IllegalStateException("not initialized");
    }
    return salutation.of(name);
  }

  @Override
  public Greeting greetFully(Person person) {
    return new Greeting(salutation.of(String.join(" ", person.titles()) + " " + person.name()));
  }

  @Override
  public String held(String name) {
    held.incrementAndGet();
    try {
      if (!gate.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the gate was never opened");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } finally {
      held.decrementAndGet();
    }
    return salutation.of(name);
  }

  @Override
  public String servingThread() {
    Thread thread = Thread.currentThread();
    boolean virtual;
    try {
      virtual = (boolean) Thread.class.getMethod("isVirtual").invoke(thread);
    } catch (ReflectiveOperationException e) {
      virtual = false; // Java 17
    }
    return thread.getName() + (virtual ? " (virtual)" : " (platform)");
  }

  @Override
  public CompletableFuture<String> greetAsync(String name) {
    return CompletableFuture.completedFuture(salutation.of(name));
  }

  @Override
  public Stream<String> greetEach(List<String> names) {
    return names.stream().map(salutation::of);
  }
}
