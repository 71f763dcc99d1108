package io.rpcx.micrometer;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import java.util.Iterator;
import java.util.Objects;

/**
 * The low-cardinality key values of an RPCX observation context, kept as one immutable {@link
 * KeyValues} instead of Micrometer's map of them: the convention's key values, which it makes once
 * per method, server and outcome, are kept as they are, so that adding them at start and again at
 * stop puts nothing in a map and reading them sorts nothing. The same rules as Micrometer's
 * context: a key value added later replaces the one of the same key, and removing a key removes
 * its value. Readers on any thread see the last change; changes are serialized.
 */
final class LowCardinalityKeyValues {
  private volatile KeyValues values = KeyValues.empty();

  /** The key values, sorted by key. */
  KeyValues get() {
    return values;
  }

  /** The value of {@code key}, or null. */
  KeyValue get(String key) {
    for (KeyValue value : values) {
      if (value.getKey().equals(key)) {
        return value;
      }
    }
    return null;
  }

  /** Adds {@code added}, replacing the values of its keys. */
  synchronized void add(KeyValues added) {
    KeyValues current = values;
    // The convention's values at stop have every key of its values at start: keep them as they
    // are rather than merge (a merge is a new array per call).
    values = covers(added, current) ? added : current.and(added);
  }

  /** Adds {@code added}, replacing the value of its key. */
  synchronized void add(KeyValue added) {
    values = values.and(added);
  }

  /** Removes the value of {@code key}, if there is one. */
  synchronized void remove(String key) {
    if (get(key) != null) {
      values = KeyValues.of(values.stream().filter(value -> !value.getKey().equals(key)).toList());
    }
  }

  /** Whether every key of {@code current} is a key of {@code added} (both sorted by key). */
  private static boolean covers(KeyValues added, KeyValues current) {
    if (added == current) {
      return true;
    }
    Iterator<KeyValue> candidates = added.iterator();
    for (KeyValue value : current) {
      boolean found = false;
      while (candidates.hasNext()) {
        int order = candidates.next().getKey().compareTo(value.getKey());
        if (order == 0) {
          found = true;
          break;
        }
        if (order > 0) {
          return false;
        }
      }
      if (!found) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return Objects.toString(values);
  }
}
