package io.rpcx.kubernetes;

import static org.junit.jupiter.api.Assertions.fail;

import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.core.discovery.ServiceEndpoint;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/** A listener that keeps every list and problem it is told, and waits for one. */
final class Recorder implements ServiceDiscovery.Listener {
  final List<List<ServiceEndpoint>> lists = new CopyOnWriteArrayList<>();
  final List<String> problems = new CopyOnWriteArrayList<>();

  @Override
  public void onEndpoints(List<ServiceEndpoint> endpoints) {
    lists.add(endpoints);
  }

  @Override
  public void onProblem(String problem) {
    problems.add(problem);
  }

  /** The addresses of the last list, in order; empty before the first. */
  List<String> addresses() {
    return lists.isEmpty()
        ? List.of()
        : lists.get(lists.size() - 1).stream().map(ServiceEndpoint::address).collect(Collectors.toList());
  }

  /** Waits up to 10 s for the last list's addresses to be {@code expected}. */
  void awaitAddresses(List<String> expected) {
    await(() -> addresses().equals(expected), () -> "addresses " + expected + ", last " + addresses());
  }

  void awaitProblem(Predicate<String> problem) {
    await(() -> problems.stream().anyMatch(problem), () -> "a problem; told " + problems);
  }

  static void await(java.util.function.BooleanSupplier condition, java.util.function.Supplier<String> what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        fail("waited 10 s for " + what.get());
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
    }
  }
}
