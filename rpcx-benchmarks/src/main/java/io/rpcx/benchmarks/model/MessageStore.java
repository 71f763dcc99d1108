package io.rpcx.benchmarks.model;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory message store behind the CRUD workload, as in seed 001's chat server: a {@link
 * ConcurrentHashMap} keyed by an identifier the store hands out.
 *
 * <p>Thread-safe. Stores and returns copies, so callers on either side of a call never share a
 * mutable {@link Message} with the store.
 */
public final class MessageStore {
  private final AtomicLong ids = new AtomicLong();
  private final ConcurrentMap<Long, Message> messages = new ConcurrentHashMap<>();

  /** Stores a copy of {@code message} under a new identifier and returns the stored copy. */
  public Message create(Message message) {
    long id = ids.incrementAndGet();
    Message stored = new Message(id, message.getText(), message.getCreatedAtMillis());
    messages.put(id, stored);
    return copy(stored);
  }

  /** Replaces the text and time of message {@code id}; false if there is no such message. */
  public boolean update(long id, Message message) {
    Message replacement = new Message(id, message.getText(), message.getCreatedAtMillis());
    return messages.replace(id, replacement) != null;
  }

  /** A copy of message {@code id}, or {@code null} if there is none. */
  public Message findById(long id) {
    Message found = messages.get(id);
    return found == null ? null : copy(found);
  }

  /** Removes message {@code id}; false if there was none. */
  public boolean remove(long id) {
    return messages.remove(id) != null;
  }

  /** Number of stored messages. */
  public int size() {
    return messages.size();
  }

  private static Message copy(Message m) {
    return new Message(m.getId(), m.getText(), m.getCreatedAtMillis());
  }
}
