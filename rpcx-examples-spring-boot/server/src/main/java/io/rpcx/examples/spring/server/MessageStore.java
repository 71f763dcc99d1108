package io.rpcx.examples.spring.server;

import io.rpcx.examples.api.Message;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Repository;

/** Where the messages live: an in-memory repository, standing in for a database. */
@Repository
public class MessageStore {
  private final ConcurrentMap<Long, Message> messages = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  private final Clock clock = Clock.systemUTC();

  public Message add(String text) {
    Message message = new Message(ids.incrementAndGet(), text, clock.instant());
    messages.put(message.id(), message);
    return message;
  }

  public boolean replace(long id, String text) {
    return messages.computeIfPresent(id, (key, old) -> new Message(id, text, old.createdAt()))
        != null;
  }

  public Optional<Message> find(long id) {
    return Optional.ofNullable(messages.get(id));
  }

  public boolean delete(long id) {
    return messages.remove(id) != null;
  }
}
