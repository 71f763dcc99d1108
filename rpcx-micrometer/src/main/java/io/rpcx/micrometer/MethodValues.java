package io.rpcx.micrometer;

import io.rpcx.core.StatusCode;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One method's {@code service/method} name, and what is made of it per server and outcome (its key values, or its meters), made once instead of on every call:
 * Micrometer asks a convention for key values when an observation starts and again when it stops,
 * and joining names, splitting addresses and sorting pairs each time cost more than the timer they
 * tag. Bounded: when {@link #MAX_SERVERS}
 * servers are kept (discovery may bring new ones for as long as a client lives), the entries are
 * dropped and made again for the servers called from then on. Thread-safe; two threads may make the
 * same value once each.
 */
final class MethodValues<T> {
  /** Servers whose values are kept, per method. */
  static final int MAX_SERVERS = 256;

  /** Methods whose values are kept, per {@link MethodTable}. */
  static final int MAX_METHODS = 4096;

  private static final int STARTED = StatusCode.values().length;

  private final String name;
  private final ConcurrentMap<String, AtomicReferenceArray<T>> byServer = new ConcurrentHashMap<>();

  MethodValues(String name) {
    this.name = name;
  }

  /** {@code service/method}. */
  String name() {
    return name;
  }

  /**
   * The value for {@code server} ({@code ""} for none) and {@code status} ({@code null} before the
   * call ended), made by {@code maker} the first time. Values must be immutable or thread-safe.
   */
  T get(String server, StatusCode status, Maker<T> maker) {
    AtomicReferenceArray<T> slots = byServer.get(server);
    if (slots == null) {
      if (byServer.size() >= MAX_SERVERS) {
        byServer.clear(); // servers come and go: start again with those calling now
      }
      slots = new AtomicReferenceArray<>(STARTED + 1);
      AtomicReferenceArray<T> raced = byServer.putIfAbsent(server, slots);
      if (raced != null) {
        slots = raced;
      }
    }
    int slot = status == null ? STARTED : status.ordinal();
    T value = slots.get(slot);
    if (value == null) {
      value = maker.make(name, server, status);
      slots.set(slot, value);
    }
    return value;
  }

  /** Makes the value of one method, server and outcome. */
  @FunctionalInterface
  interface Maker<T> {
    T make(String name, String server, StatusCode status);
  }
}
