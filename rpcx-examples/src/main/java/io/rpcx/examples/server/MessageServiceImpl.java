package io.rpcx.examples.server;

import io.rpcx.annotation.RPCXServer;
import io.rpcx.examples.api.Message;
import io.rpcx.examples.api.MessageService;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/** Keeps messages in memory, as the chat server of seed 001 does. */
@RPCXServer(name = "messages")
public class MessageServiceImpl implements MessageService {
  private final ConcurrentMap<Long, Message> messages = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();

  @Override
  public Message create(String text) {
    Message message = new Message(ids.incrementAndGet(), text, Instant.now());
    messages.put(message.id(), message);
    return message;
  }

  @Override
  public boolean update(long id, String text) {
    return messages.computeIfPresent(id, (key, old) -> new Message(id, text, old.createdAt())) != null;
  }

  @Override
  public Optional<Message> findById(long id) {
    return Optional.ofNullable(messages.get(id));
  }

  @Override
  public boolean remove(long id) {
    return messages.remove(id) != null;
  }
}
