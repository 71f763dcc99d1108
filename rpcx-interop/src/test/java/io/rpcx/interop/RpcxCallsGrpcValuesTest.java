package io.rpcx.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.client.RpcxClient;
import io.rpcx.core.ResourceExhaustedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An annotated RPCX interface calling a grpc-java server that implements its exported service
 * ({@link GrpcJavaInterop}, generated from the {@code .proto} RPCX exports) through a {@code
 * grpc://} target: every kind of value, as a record and as a POJO, with zero, false, empty and null
 * apart, blocking and asynchronous, and messages of 1 MiB and 16 MiB both ways.
 */
@Timeout(60)
class RpcxCallsGrpcValuesTest {
  private static GrpcJavaServer server;
  private static RpcxClient client;
  private static InteropService interop;

  @BeforeAll
  static void start() {
    server = GrpcJavaServer.start();
    client =
        RpcxClient.builder()
            .targets(InteropService.class, server.target())
            .maxFrameSize(32 << 20)
            .defaultTimeout(Duration.ofSeconds(30))
            .build();
    interop = client.create(InteropService.class);
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  @Test
  void textComesBackWithEmptyAndNullApart() {
    assertEquals("hello, \u00e9t\u00e9 \uD83D\uDE00", interop.echo("hello, \u00e9t\u00e9 \uD83D\uDE00"));
    assertEquals("", interop.echo(""));
    assertNull(interop.echo(null));
    String longText = "x".repeat(100_000);
    assertEquals(longText, interop.echo(longText));
  }

  @Test
  void scalarsWithZeroAndFalseApartFromNull() {
    assertEquals(0, interop.echoLong(0));
    assertEquals(Long.MIN_VALUE, interop.echoLong(Long.MIN_VALUE));
    assertEquals(Long.MAX_VALUE, interop.echoLong(Long.MAX_VALUE));
    assertFalse(interop.echoBoolean(false));
    assertTrue(interop.echoBoolean(true));
    assertEquals(0, interop.echoBoxed(0));
    assertEquals(-7, interop.echoBoxed(-7));
    assertNull(interop.echoBoxed(null));
    assertEquals(5_000_000_007L, interop.add(7, 5_000_000_000L));
    assertEquals(0, interop.add(0, 0));
  }

  @Test
  void bytesWithEmptyApartFromNull() {
    assertArrayEquals(new byte[] {0, 1, -1}, interop.echoBytes(new byte[] {0, 1, -1}));
    assertArrayEquals(new byte[0], interop.echoBytes(new byte[0]));
    assertNull(interop.echoBytes(null));
  }

  @Test
  void aRecordWithNestedCollectionsAnEnumAndEmptyParts() {
    assertEquals(Item.of(42), interop.echoItem(Item.of(42)));
    assertEquals(Item.of(0), interop.echoItem(Item.of(0)), "id 0 and the first enum constant");
    // The export makes a record's text a plain proto3 string, which a protobuf peer does not tell
    // from its default: an empty one comes back absent (null). Collections keep their emptiness.
    Item sparse = new Item(0, "", List.of(), Map.of(), Item.Kind.PLAIN);
    assertEquals(new Item(0, null, List.of(), Map.of(), Item.Kind.PLAIN), interop.echoItem(sparse));
    List<String> tags = new ArrayList<>(Arrays.asList("a", null, ""));
    Item withNulls = new Item(3, null, tags, Map.of("", ""), null);
    assertEquals(withNulls, interop.echoItem(withNulls));
    assertNull(interop.echoItem(null));
  }

  @Test
  void aPojoHoldingRecords() {
    Shelf shelf = new Shelf("top", 3, true, List.of(Item.of(1), Item.of(2)));
    assertEquals(shelf, interop.echoShelf(shelf));
    Shelf empty = new Shelf("", 0, false, List.of());
    assertEquals(new Shelf(null, 0, false, List.of()), interop.echoShelf(empty), "as for records");
    assertNull(interop.echoShelf(null));
  }

  @Test
  void listsAndMapsWithNullsAndEmptiness() {
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      items.add(Item.of(i));
    }
    items.add(50, null);
    assertEquals(items, interop.echoItems(items));
    assertEquals(List.of(), interop.echoItems(List.of()));
    Map<String, Integer> counts = new HashMap<>();
    counts.put("a", 1);
    counts.put("zero", 0);
    counts.put("", -1);
    assertEquals(counts, interop.echoMap(counts));
    assertEquals(Map.of(), interop.echoMap(Map.of()));
  }

  @Test
  void anAsynchronousMethodCompletesItsFuture() throws Exception {
    CompletableFuture<String> later = interop.upperLater("later");
    assertEquals("LATER", later.get(30, TimeUnit.SECONDS));
    List<CompletableFuture<String>> many = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      many.add(interop.upperLater("call " + i));
    }
    for (int i = 0; i < 200; i++) {
      assertEquals("CALL " + i, many.get(i).get(30, TimeUnit.SECONDS));
    }
  }

  @Test
  void manyCallsAtOnceShareOneConnection() throws Exception {
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    for (int t = 0; t < 8; t++) {
      int thread = t;
      Thread caller =
          new Thread(
              () -> {
                try {
                  for (int i = 0; i < 200; i++) {
                    assertEquals(thread * 1000L + i, interop.add(thread * 1000, i));
                  }
                } catch (Throwable e) {
                  failures.add(e);
                }
              });
      caller.start();
      threads.add(caller);
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertEquals(List.of(), failures);
    assertEquals(1, client.stats().openConnections());
  }

  @Test
  void messagesOfOneAndSixteenMebibytesBothWays() {
    for (int size : new int[] {0, 1, 1 << 20, (1 << 20) + 1, 16 << 20}) {
      byte[] reply = interop.bytesOfSize(size);
      assertEquals(size, reply.length);
      for (int i = 0; i < size; i += 4093) {
        assertEquals((byte) i, reply[i]);
      }
      assertArrayEquals(reply, interop.echoBytes(reply));
    }
  }

  @Test
  void aRequestOverTheClientsLimitIsRefusedBeforeItIsSent() {
    try (GrpcJavaLogs logs = new GrpcJavaLogs();
        RpcxClient small =
        RpcxClient.builder()
            .targets(InteropService.class, server.target())
            .maxFrameSize(1 << 20)
            .build()) {
      InteropService limited = small.create(InteropService.class);
      ResourceExhaustedException refused =
          assertThrows(
              ResourceExhaustedException.class, () -> limited.echoBytes(new byte[2 << 20]));
      assertEquals(
          "the request of interop/echoBytes is over the message limit of 1048576 bytes",
          refused.getMessage());
      ResourceExhaustedException tooLarge =
          assertThrows(ResourceExhaustedException.class, () -> limited.bytesOfSize(2 << 20));
      assertTrue(
          tooLarge.getMessage().startsWith(
              "a reply of interop/bytesOfSize from grpc://127.0.0.1:" + server.port()
                  + " is too large: a message of 2097157 bytes is over the limit of 1048576"
                  + " bytes"),
          tooLarge.getMessage());
      assertEquals("still fine", limited.echo("still fine"), "the connection goes on");
      // The client reset the stream as soon as the reply's length was over its limit: the server
      // had 1 MiB of window, and the rest of its reply (and its trailers) had nowhere to go.
      // grpc-java says so only when a write of its reaches the reset stream, which depends on
      // when its executor runs (a clean-clone CI run saw none): whatever it logs is that.
      List<String> logged = logs.messages();
      for (String line : logged) {
        assertEquals("WARNING Stream Error: Stream closed before write could take place", line);
      }
    }
  }
}
