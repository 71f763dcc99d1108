package io.rpcx.examples.spring.server;

import io.rpcx.annotation.RPCXServer;
import io.rpcx.examples.api.Message;
import io.rpcx.examples.api.MessageService;
import java.util.Optional;
import org.springframework.stereotype.Service;

/** The message service (seed 001) as a Spring bean, its repository injected by its constructor. */
@Service
@RPCXServer(name = "messages")
public class MessageServiceBean implements MessageService {
  private final MessageStore store;

  public MessageServiceBean(MessageStore store) {
    this.store = store;
  }

  @Override
  public Message create(String text) {
    return store.add(text);
  }

  @Override
  public boolean update(long id, String text) {
    return store.replace(id, text);
  }

  @Override
  public Optional<Message> findById(long id) {
    return store.find(id);
  }

  @Override
  public boolean remove(long id) {
    return store.delete(id);
  }
}
