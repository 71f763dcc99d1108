package io.rpcx.examples.api;

import io.rpcx.annotation.RPCXClient;
import java.util.Optional;

/** The message CRUD service of the framework comparison article (seed 001). */
@RPCXClient(name = "messages", address = "127.0.0.1", port = 9000)
public interface MessageService {

  /** Stores a new message and returns it with its id and creation time. */
  Message create(String text);

  boolean update(long id, String text);

  Optional<Message> findById(long id);

  boolean remove(long id);
}
