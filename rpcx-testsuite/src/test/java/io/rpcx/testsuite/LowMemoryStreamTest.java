package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.client.RpcxClient;
import io.rpcx.server.RpcxServer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server stream carries 1 GiB in 1 MiB chunks through a JVM of 256 MiB (heap and direct memory;
 * surefire runs the LowMemory classes alone with {@code -Xmx256m}, see rpcx-testsuite/pom.xml), and so
 * does a client stream the other way: the credit keeps what is in flight and held to the window,
 * whatever the size of the whole.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@SuppressWarnings({"try"}) // scopes held open for their bodies
class LowMemoryStreamTest {
  private static final int CHUNKS = 1024;

  @Test
  void aGigabyteStreamsIn1MiBChunksInConstantMemoryOverTcp() throws Exception {
    try (RpcxServer server =
            RpcxServer.builder().bindAddress("127.0.0.1").service(new FeedService.Impl()).build().start();
        RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      assertEquals(1L << 30, streamAll(client));
    }
  }

  @Test
  void aGigabyteStreamsIn1MiBChunksInConstantMemoryInProcess() throws Exception {
    try (RpcxServer server =
            RpcxServer.builder().inProcess("low-memory-stream").service(new FeedService.Impl()).build().start();
        RpcxClient client = RpcxClient.builder().inProcess("low-memory-stream").build()) {
      assertEquals(1L << 30, streamAll(client));
    }
  }

  @Test
  void aGigabyteUploadsIn1MiBChunksInConstantMemoryOverTcp() throws Exception {
    try (RpcxServer server =
            RpcxServer.builder().bindAddress("127.0.0.1").service(new UploadService.Impl()).build().start();
        RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      assertEquals(1L << 30, uploadAll(client));
    }
  }

  @Test
  void aGigabyteUploadsIn1MiBChunksInConstantMemoryInProcess() throws Exception {
    try (RpcxServer server =
            RpcxServer.builder().inProcess("low-memory-upload").service(new UploadService.Impl()).build().start();
        RpcxClient client = RpcxClient.builder().inProcess("low-memory-upload").build()) {
      assertEquals(1L << 30, uploadAll(client));
    }
  }

  /**
   * Uploads {@link #CHUNKS} chunks, each made when the server's credit asks for it; the server
   * checks each, requesting 16 ahead. Returns the bytes the server counted.
   */
  private static long uploadAll(RpcxClient client) throws Exception {
    assertTrue(
        Runtime.getRuntime().maxMemory() <= 300L * 1024 * 1024,
        "run with -Xmx256m: " + Runtime.getRuntime().maxMemory());
    java.util.List<byte[]> chunks =
        new java.util.AbstractList<>() {
          @Override
          public byte[] get(int index) {
            byte[] chunk = new byte[1 << 20];
            java.util.Arrays.fill(chunk, (byte) index);
            return chunk;
          }

          @Override
          public int size() {
            return CHUNKS;
          }
        };
    return client
        .create(UploadService.class)
        .upload(new FeedService.ListPublisher<>(chunks, null))
        .get(100, TimeUnit.SECONDS);
  }

  /** Reads every chunk, checking each, requesting 16 ahead; returns the bytes received. */
  private static long streamAll(RpcxClient client) throws Exception {
    assertTrue(
        Runtime.getRuntime().maxMemory() <= 300L * 1024 * 1024,
        "run with -Xmx256m: " + Runtime.getRuntime().maxMemory());
    {
      CompletableFuture<Long> done = new CompletableFuture<>();
      client.create(FeedService.class).chunks(CHUNKS).subscribe(
          new Flow.Subscriber<byte[]>() {
            private Flow.Subscription subscription;
            private long bytes;
            private int index;

            @Override
            public void onSubscribe(Flow.Subscription subscription) {
              this.subscription = subscription;
              subscription.request(16);
            }

            @Override
            public void onNext(byte[] chunk) {
              if (chunk.length != 1 << 20 || chunk[0] != (byte) index || chunk[chunk.length - 1] != (byte) index) {
                done.completeExceptionally(new AssertionError("chunk " + index + " is wrong"));
                subscription.cancel();
                return;
              }
              index++;
              bytes += chunk.length;
              subscription.request(1);
            }

            @Override
            public void onError(Throwable failure) {
              done.completeExceptionally(failure);
            }

            @Override
            public void onComplete() {
              done.complete(bytes);
            }
          });
      return done.get(100, TimeUnit.SECONDS);
    }
  }
}
