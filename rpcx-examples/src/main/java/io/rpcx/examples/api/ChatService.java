package io.rpcx.examples.api;

import io.rpcx.annotation.RPCXClient;
import java.util.concurrent.Flow;

/**
 * A chat: a <b>bidirectional stream</b> (docs/STREAMING.md). The client sends texts as it likes;
 * the server answers each with the message it stored, id and time included, in the same order.
 */
@RPCXClient(name = "chat", address = "127.0.0.1", port = 9000)
public interface ChatService {

  /** Each text sent comes back as the stored {@link Message}; the chat ends when the texts end. */
  Flow.Publisher<Message> chat(Flow.Publisher<String> texts);
}
