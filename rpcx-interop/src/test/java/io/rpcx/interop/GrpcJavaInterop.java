package io.rpcx.interop;

import com.google.protobuf.ByteString;
import interop.InteropGrpc;
import interop.InteropOuterClass.AddReply;
import interop.InteropOuterClass.AddRequest;
import interop.InteropOuterClass.BytesOfSizeReply;
import interop.InteropOuterClass.BytesOfSizeRequest;
import interop.InteropOuterClass.ChunksReply;
import interop.InteropOuterClass.ChunksRequest;
import interop.InteropOuterClass.CountReply;
import interop.InteropOuterClass.CountRequest;
import interop.InteropOuterClass.CountThenFailReply;
import interop.InteropOuterClass.CountThenFailRequest;
import interop.InteropOuterClass.EchoBooleanReply;
import interop.InteropOuterClass.EchoBooleanRequest;
import interop.InteropOuterClass.EchoBoxedReply;
import interop.InteropOuterClass.EchoBoxedRequest;
import interop.InteropOuterClass.EchoBytesReply;
import interop.InteropOuterClass.EchoBytesRequest;
import interop.InteropOuterClass.EchoItemReply;
import interop.InteropOuterClass.EchoItemRequest;
import interop.InteropOuterClass.EchoItemsReply;
import interop.InteropOuterClass.EchoItemsRequest;
import interop.InteropOuterClass.EchoLongReply;
import interop.InteropOuterClass.EchoLongRequest;
import interop.InteropOuterClass.EchoMapReply;
import interop.InteropOuterClass.EchoMapRequest;
import interop.InteropOuterClass.EchoReply;
import interop.InteropOuterClass.EchoRequest;
import interop.InteropOuterClass.EchoShelfReply;
import interop.InteropOuterClass.EchoShelfRequest;
import interop.InteropOuterClass.FailDeclaredReply;
import interop.InteropOuterClass.FailDeclaredRequest;
import interop.InteropOuterClass.Item;
import interop.InteropOuterClass.JoinReply;
import interop.InteropOuterClass.JoinRequest;
import interop.InteropOuterClass.ListOfString;
import interop.InteropOuterClass.MapOfStringToString;
import interop.InteropOuterClass.MetadataReply;
import interop.InteropOuterClass.MetadataRequest;
import interop.InteropOuterClass.RemainingMillisReply;
import interop.InteropOuterClass.RemainingMillisRequest;
import interop.InteropOuterClass.SleepReply;
import interop.InteropOuterClass.SleepRequest;
import interop.InteropOuterClass.SumReply;
import interop.InteropOuterClass.SumRequest;
import interop.InteropOuterClass.UpperLaterReply;
import interop.InteropOuterClass.UpperLaterRequest;
import interop.InteropOuterClass.UpperReply;
import interop.InteropOuterClass.UpperRequest;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Deadline;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

/**
 * {@link InteropService} written for grpc-java, on the messages generated from its exported
 * {@code .proto}: what a team in another stack writes from {@code rpcx proto}. It does what {@link
 * InteropServiceImpl} does (the same values back, the same failures: a declared exception as
 * {@code UNKNOWN} with the {@code rpcx-exception-class} trailer, as RPCX's own gRPC side sends
 * it), and records what tests look at: the calls it served, the streams its clients cancelled, the
 * elements it produced.
 */
final class GrpcJavaInterop extends InteropGrpc.InteropImplBase {
  /** The request headers of the call being served. */
  static final Context.Key<Metadata> HEADERS = Context.key("headers");
  static final Metadata.Key<String> EXCEPTION_CLASS =
      Metadata.Key.of("rpcx-exception-class", Metadata.ASCII_STRING_MARSHALLER);
  /** A request header asking the server to fail the call with this gRPC code (a number). */
  static final Metadata.Key<String> FAIL_WITH =
      Metadata.Key.of("x-fail-with", Metadata.ASCII_STRING_MARSHALLER);

  /** Calls served, by method name, in order. */
  final Queue<String> served = new ConcurrentLinkedQueue<>();
  /**
   * Calls whose method runs and watches for its cancel, by method name: a call cancelled before
   * its method ran (its reset beat the request) is never counted in {@link #cancelled}.
   */
  final Queue<String> watching = new ConcurrentLinkedQueue<>();
  /** The methods whose calls their clients cancelled (reset, or let their deadline pass). */
  final Queue<String> cancelled = new ConcurrentLinkedQueue<>();
  /** Elements the server streams produced so far. */
  final AtomicLong produced = new AtomicLong();
  /** Calls of {@code echo} still to be answered UNAVAILABLE before any is answered. */
  final AtomicInteger echoUnavailable = new AtomicInteger();

  /**
   * The interceptor of this server's calls: makes the headers visible to the methods, and fails a
   * call that asks for it with the code it names ({@code x-fail-with}, message {@code x-because}).
   */
  ServerInterceptor interceptor() {
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(
          ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        served.add(call.getMethodDescriptor().getBareMethodName());
        String failWith = headers.get(FAIL_WITH);
        if (failWith != null) {
          call.close(
              Status.fromCodeValue(Integer.parseInt(failWith))
                  .withDescription(
                      headers.get(Metadata.Key.of("x-because", Metadata.ASCII_STRING_MARSHALLER))),
              new Metadata());
          return new ServerCall.Listener<>() {};
        }
        return Contexts.interceptCall(
            Context.current().withValue(HEADERS, headers), call, headers, next);
      }
    };
  }

  private static <T> void reply(StreamObserver<T> observer, T reply) {
    observer.onNext(reply);
    observer.onCompleted();
  }

  @Override
  public void echo(EchoRequest request, StreamObserver<EchoReply> observer) {
    if (echoUnavailable.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      observer.onError(Status.UNAVAILABLE.withDescription("busy, try elsewhere").asException());
      return;
    }
    EchoReply.Builder reply = EchoReply.newBuilder();
    if (request.hasText()) {
      reply.setValue(request.getText());
    }
    reply(observer, reply.build());
  }

  @Override
  public void echoLong(EchoLongRequest request, StreamObserver<EchoLongReply> observer) {
    if (!request.hasValue()) {
      observer.onError(
          Status.INVALID_ARGUMENT.withDescription("value is absent, but is a long").asException());
      return;
    }
    reply(observer, EchoLongReply.newBuilder().setValue(request.getValue()).build());
  }

  @Override
  public void echoBoolean(EchoBooleanRequest request, StreamObserver<EchoBooleanReply> observer) {
    if (!request.hasValue()) {
      observer.onError(
          Status.INVALID_ARGUMENT.withDescription("value is absent, but is a boolean").asException());
      return;
    }
    reply(observer, EchoBooleanReply.newBuilder().setValue(request.getValue()).build());
  }

  @Override
  public void echoBoxed(EchoBoxedRequest request, StreamObserver<EchoBoxedReply> observer) {
    EchoBoxedReply.Builder reply = EchoBoxedReply.newBuilder();
    if (request.hasValue()) {
      reply.setValue(request.getValue());
    }
    reply(observer, reply.build());
  }

  @Override
  public void echoBytes(EchoBytesRequest request, StreamObserver<EchoBytesReply> observer) {
    EchoBytesReply.Builder reply = EchoBytesReply.newBuilder();
    if (request.hasData()) {
      reply.setValue(request.getData());
    }
    reply(observer, reply.build());
  }

  @Override
  public void echoItem(EchoItemRequest request, StreamObserver<EchoItemReply> observer) {
    EchoItemReply.Builder reply = EchoItemReply.newBuilder();
    if (request.hasItem()) {
      reply.setValue(request.getItem());
    }
    reply(observer, reply.build());
  }

  @Override
  public void echoShelf(EchoShelfRequest request, StreamObserver<EchoShelfReply> observer) {
    EchoShelfReply.Builder reply = EchoShelfReply.newBuilder();
    if (request.hasShelf()) {
      reply.setValue(request.getShelf());
    }
    reply(observer, reply.build());
  }

  @Override
  public void echoItems(EchoItemsRequest request, StreamObserver<EchoItemsReply> observer) {
    EchoItemsReply.Builder reply = EchoItemsReply.newBuilder();
    if (request.hasItems()) {
      reply.setValue(request.getItems());
    }
    reply(observer, reply.build());
  }

  @Override
  public void echoMap(EchoMapRequest request, StreamObserver<EchoMapReply> observer) {
    EchoMapReply.Builder reply = EchoMapReply.newBuilder();
    if (request.hasCounts()) {
      reply.setValue(request.getCounts());
    }
    reply(observer, reply.build());
  }

  @Override
  public void add(AddRequest request, StreamObserver<AddReply> observer) {
    reply(observer, AddReply.newBuilder().setValue(request.getA() + request.getB()).build());
  }

  @Override
  public void bytesOfSize(BytesOfSizeRequest request, StreamObserver<BytesOfSizeReply> observer) {
    reply(observer, BytesOfSizeReply.newBuilder().setValue(bytesOfSize(request.getSize())).build());
  }

  static ByteString bytesOfSize(int size) {
    byte[] data = new byte[size];
    for (int i = 0; i < size; i++) {
      data[i] = (byte) i;
    }
    return ByteString.copyFrom(data);
  }

  @Override
  public void metadata(MetadataRequest request, StreamObserver<MetadataReply> observer) {
    String value =
        HEADERS.get().get(Metadata.Key.of(request.getKey(), Metadata.ASCII_STRING_MARSHALLER));
    MetadataReply.Builder reply = MetadataReply.newBuilder();
    if (value != null) {
      reply.setValue(value);
    }
    reply(observer, reply.build());
  }

  @Override
  public void remainingMillis(
      RemainingMillisRequest request, StreamObserver<RemainingMillisReply> observer) {
    Deadline deadline = Context.current().getDeadline();
    reply(
        observer,
        RemainingMillisReply.newBuilder()
            .setValue(deadline == null ? -1 : deadline.timeRemaining(TimeUnit.MILLISECONDS))
            .build());
  }

  @Override
  public void sleep(SleepRequest request, StreamObserver<SleepReply> observer) {
    watchCancel(observer, "sleep");
    try {
      Thread.sleep(request.getMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!((ServerCallStreamObserver<SleepReply>) observer).isCancelled()) {
      reply(observer, SleepReply.newBuilder().setValue("slept").build());
    }
  }

  @Override
  public void failDeclared(FailDeclaredRequest request, StreamObserver<FailDeclaredReply> observer) {
    observer.onError(declared(InteropException.class.getName(), request.getMessage()));
  }

  /** A failure as RPCX's gRPC side sends an exception the method threw. */
  private static StatusRuntimeException declared(String exceptionClass, String message) {
    Metadata trailers = new Metadata();
    trailers.put(EXCEPTION_CLASS, exceptionClass);
    return Status.UNKNOWN.withDescription(message).asRuntimeException(trailers);
  }

  @Override
  public void upperLater(UpperLaterRequest request, StreamObserver<UpperLaterReply> observer) {
    CompletableFuture.runAsync(
        () -> reply(observer, UpperLaterReply.newBuilder().setValue(request.getText().toUpperCase()).build()));
  }

  /** The item {@link Item#of} makes, as the exported message. */
  static Item item(long id) {
    return Item.newBuilder()
        .setId(id)
        .setName("item-" + id)
        .setTags(ListOfString.newBuilder().addValues("t" + id).addValues("u" + id))
        .setAttributes(MapOfStringToString.newBuilder().putEntries("k", "v" + id))
        .setKind(id % 2 == 0 ? "PLAIN" : "SPECIAL")
        .build();
  }

  @Override
  public void count(CountRequest request, StreamObserver<CountReply> observer) {
    generate(observer, "count", request.getCount(), i -> CountReply.newBuilder().setValue(item(i)).build(), null);
  }

  @Override
  public void chunks(ChunksRequest request, StreamObserver<ChunksReply> observer) {
    int size = request.getChunkSize();
    long total = request.getTotal();
    ByteString chunk = ByteString.copyFrom(new byte[size]);
    generate(
        observer,
        "chunks",
        (total + size - 1) / size,
        i ->
            ChunksReply.newBuilder()
                .setValue(
                    total - i * size >= size ? chunk : chunk.substring(0, (int) (total - i * size)))
                .build(),
        null);
  }

  @Override
  public void countThenFail(CountThenFailRequest request, StreamObserver<CountThenFailReply> observer) {
    generate(
        observer,
        "countThenFail",
        request.getCount(),
        i -> CountThenFailReply.newBuilder().setValue(item(i)).build(),
        declared(IllegalStateException.class.getName(), "failed after " + request.getCount()));
  }

  /**
   * Sends {@code count} elements as the transport is ready for them (HTTP/2 flow control: a slow
   * reader holds the producer back), then completes, or fails with {@code failure}.
   */
  private <T> void generate(
      StreamObserver<T> plain,
      String method,
      long count,
      LongFunction<T> element,
      StatusRuntimeException failure) {
    ServerCallStreamObserver<T> observer = (ServerCallStreamObserver<T>) plain;
    watchCancel(observer, method);
    long[] next = {0};
    boolean[] done = {false};
    observer.setOnReadyHandler(
        () -> {
          while (observer.isReady() && !done[0] && !observer.isCancelled()) {
            if (next[0] == count) {
              done[0] = true;
              if (failure == null) {
                observer.onCompleted();
              } else {
                observer.onError(failure);
              }
              return;
            }
            observer.onNext(element.apply(next[0]++));
            produced.incrementAndGet();
          }
        });
  }

  /**
   * Records {@code method} in {@link #cancelled} when its client cancels it (a reset, or its
   * deadline), at once: the call's context is cancelled on the transport's thread, while the
   * observer's cancel handler would wait for a blocked method to return.
   */
  private void watchCancel(StreamObserver<?> observer, String method) {
    ((ServerCallStreamObserver<?>) observer).setOnCancelHandler(() -> {});
    Context.current()
        .addListener(
            context -> {
              if (context.cancellationCause() != null) {
                cancelled.add(method);
              }
            },
            Runnable::run);
    watching.add(method);
  }

  @Override
  public StreamObserver<SumRequest> sum(StreamObserver<SumReply> observer) {
    watchCancel(observer, "sum");
    return new StreamObserver<>() {
      private long total;

      @Override
      public void onNext(SumRequest number) {
        total += number.getNumbers();
      }

      @Override
      public void onError(Throwable failure) {}

      @Override
      public void onCompleted() {
        reply(observer, SumReply.newBuilder().setValue(total).build());
      }
    };
  }

  @Override
  public StreamObserver<JoinRequest> join(StreamObserver<JoinReply> observer) {
    watchCancel(observer, "join");
    return new StreamObserver<>() {
      private String separator;
      private final List<String> parts = new ArrayList<>();

      @Override
      public void onNext(JoinRequest message) {
        if (separator == null) {
          separator = message.getSeparator(); // the first message holds the other arguments
        } else {
          parts.add(message.getParts());
        }
      }

      @Override
      public void onError(Throwable failure) {}

      @Override
      public void onCompleted() {
        if (separator == null) {
          observer.onError(
              Status.INTERNAL.withDescription("no first message with the separator").asException());
          return;
        }
        reply(observer, JoinReply.newBuilder().setValue(String.join(separator, parts)).build());
      }
    };
  }

  @Override
  public StreamObserver<UpperRequest> upper(StreamObserver<UpperReply> observer) {
    watchCancel(observer, "upper");
    return new StreamObserver<>() {
      @Override
      public void onNext(UpperRequest text) {
        observer.onNext(UpperReply.newBuilder().setValue(text.getTexts().toUpperCase()).build());
      }

      @Override
      public void onError(Throwable failure) {}

      @Override
      public void onCompleted() {
        observer.onCompleted();
      }
    };
  }
}
