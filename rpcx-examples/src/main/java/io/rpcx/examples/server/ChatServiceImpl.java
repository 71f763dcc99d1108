package io.rpcx.examples.server;

import io.rpcx.annotation.RPCXServer;
import io.rpcx.examples.api.ChatService;
import io.rpcx.examples.api.Message;
import java.time.Instant;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Answers every text with the message it makes of it. The reply stream is the text stream mapped
 * one to one, so the client's demand for replies is passed on as demand for texts: the client sets
 * the pace of both directions. With Reactor this is {@code
 * FlowAdapters.toFlowPublisher(Flux.from(FlowAdapters.toPublisher(texts)).map(this::store))}.
 */
@RPCXServer(name = "chat")
public class ChatServiceImpl implements ChatService {
  private final AtomicLong ids = new AtomicLong();

  @Override
  public Flow.Publisher<Message> chat(Flow.Publisher<String> texts) {
    return new MappedPublisher<>(texts, text -> new Message(ids.incrementAndGet(), text, Instant.now()));
  }
}
