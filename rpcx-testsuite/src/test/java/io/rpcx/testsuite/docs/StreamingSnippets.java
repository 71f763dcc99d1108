package io.rpcx.testsuite.docs;

import io.rpcx.annotation.Method;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.client.RpcxClient;
import io.rpcx.server.RpcxServer;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.function.Function;
import java.util.stream.Stream;
import org.reactivestreams.FlowAdapters;
import reactor.core.publisher.Flux;

/**
 * The Java snippets of docs/STREAMING.md, each line as the doc has it, in code that compiles
 * ({@link DocSnippetsTest}). Never run.
 */
class StreamingSnippets {
  /** The values the snippets stream. */
  public record OrderInfo(long id, String customer) {}

  public record Message(String text) {}

  public record Reply(String text) {}

  /** Makes the orders the Reactor snippet streams. */
  static final class Samples {
    static OrderInfo order(int i) {
      return new OrderInfo(i, "c-" + i);
    }
  }

  // "The server stream"

  @RPCXClient(name = "orders")
  public interface OrderService {
    Flow.Publisher<OrderInfo> streamOrders(int count);

    @Method(timeoutMillis = 60_000)          // a deadline for the whole stream
    Stream<OrderInfo> recentOrders(String customer);
  }

  static void subscribe(OrderService orders) {
    orders.streamOrders(1000).subscribe(new Flow.Subscriber<>() {
      Flow.Subscription subscription;
      public void onSubscribe(Flow.Subscription s) { subscription = s; s.request(100); }
      public void onNext(OrderInfo order) { handle(order); subscription.request(1); }
      public void onError(Throwable failure) { log(failure); }
      public void onComplete() { done(); }
    });
  }

  void recent(OrderService orders) {
    try (Stream<OrderInfo> recent = orders.recentOrders("c-42")) {
      recent.limit(10).forEach(this::show);
    }                                          // cancels the rest
  }

  // "The client stream: an upload"

  @RPCXClient(name = "files")
  public interface FileService {
    CompletableFuture<Long> upload(String name, Flow.Publisher<byte[]> chunks);
  }

  static long upload(FileService files, Path path) {
    // Client: a file in 1 MiB chunks, read only as the server asks for them.
    long stored = files.upload("photo.jpg", chunksOf(path, 1 << 20)).join();
    return stored;
  }

  abstract static class FileServiceImpl implements FileService {
    @Override
    public CompletableFuture<Long> upload(String name, Flow.Publisher<byte[]> chunks) {
      CompletableFuture<Long> stored = new CompletableFuture<>();
      chunks.subscribe(new Flow.Subscriber<>() {
        Flow.Subscription subscription;
        long bytes;
        public void onSubscribe(Flow.Subscription s) { subscription = s; s.request(16); }
        public void onNext(byte[] chunk) { bytes += write(name, chunk); subscription.request(1); }
        public void onError(Throwable failure) { stored.completeExceptionally(failure); }
        public void onComplete() { stored.complete(bytes); }
      });
      return stored;
    }

    /** Stores a chunk; returns its size. */
    abstract long write(String name, byte[] chunk);
  }

  // "The bidirectional stream: a chat"

  @RPCXClient(name = "chat")
  public interface ChatService {
    Flow.Publisher<Reply> talk(String room, Flow.Publisher<Message> messages);
  }

  static class ChatServiceImpl implements ChatService {
    // Server: answer each message as it comes (map is any Flow operator, Reactor's, RxJava's, yours).
    @Override
    public Flow.Publisher<Reply> talk(String room, Flow.Publisher<Message> messages) {
      return map(messages, message -> answer(room, message));
    }

    private static Reply answer(String room, Message message) {
      return new Reply(room + ": " + message.text());
    }
  }

  // "Flow control"

  static void windows() {
    RpcxClient.builder().maxStreamWindow(1024).maxStreamBufferedBytes(4L << 20);  // the defaults
    RpcxServer.builder().maxStreamBufferedBytes(16L << 20);  // uploads of 1 MiB chunks: 16 in flight each
  }

  // "Reactor and RxJava"

  void reactorClient(OrderService service) {
    // Client: a Flux of a server stream (each subscription is one call).
    Flux<OrderInfo> orders = Flux.from(FlowAdapters.toPublisher(service.streamOrders(1000)));
    orders.limitRate(64).take(10).subscribe(this::show);   // take cancels the call
  }

  abstract static class ReactorOrderService implements OrderService {
    // Server: return a Flux as a Flow.Publisher.
    @Override
    public Flow.Publisher<OrderInfo> streamOrders(int count) {
      return FlowAdapters.toFlowPublisher(Flux.range(0, count).map(Samples::order));
    }
  }

  static Flux<Reply> reactorChat(ChatService chat, Flux<Message> messages) {
    // A stream argument works the same way: a Flux in, a Flux out.
    Flux<Reply> replies =
        Flux.from(FlowAdapters.toPublisher(chat.talk("lobby", FlowAdapters.toFlowPublisher(messages))));
    return replies;
  }

  // What the snippets call and leave to the reader.

  void show(OrderInfo order) {
    System.out.println(order);
  }

  static void handle(OrderInfo order) {
    System.out.println(order);
  }

  static void log(Throwable failure) {
    failure.printStackTrace();
  }

  static void done() {}

  static Flow.Publisher<byte[]> chunksOf(Path path, int size) {
    return FlowAdapters.toFlowPublisher(
        Flux.using(
            () -> java.nio.file.Files.newInputStream(path),
            in -> Flux.<byte[]>generate(sink -> {
              try {
                byte[] chunk = in.readNBytes(size);
                if (chunk.length == 0) {
                  sink.complete();
                } else {
                  sink.next(chunk);
                }
              } catch (java.io.IOException e) {
                sink.error(e);
              }
            }),
            in -> {
              try {
                in.close();
              } catch (java.io.IOException e) {
                // closing a file read to its end
              }
            }));
  }

  /** {@code source}, each element turned by {@code function}: a Flow operator of the reader's. */
  static <T, R> Flow.Publisher<R> map(Flow.Publisher<T> source, Function<T, R> function) {
    return FlowAdapters.toFlowPublisher(Flux.from(FlowAdapters.toPublisher(source)).map(function));
  }
}
