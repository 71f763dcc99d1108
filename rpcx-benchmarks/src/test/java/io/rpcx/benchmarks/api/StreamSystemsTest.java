package io.rpcx.benchmarks.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every streaming system delivers every element of both payloads, on one stream and on 32 streams
 * at once over its one connection, and the tally that counts them fails a stream that is short,
 * long or wrong instead of letting it look fast.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StreamSystemsTest {

  @Test
  void registersRpcxGrpcInEachFormAndTheFloor() {
    assertEquals(
        List.of(
            "rpcx", "rpcx-direct", "grpc", "grpc-ready", "grpc-batch", "grpc-ready-batch", "netty"),
        StreamSystems.names());
    IllegalArgumentException unknown =
        assertThrows(IllegalArgumentException.class, () -> StreamSystems.get("dubbo"));
    assertEquals(
        "unknown stream system 'dubbo'; registered: rpcx, rpcx-direct, grpc, grpc-ready,"
            + " grpc-batch, grpc-ready-batch, netty",
        unknown.getMessage());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "rpcx", "rpcx-direct", "grpc", "grpc-ready", "grpc-batch", "grpc-ready-batch", "netty"
      })
  void deliversEveryElementOnOneStreamAndOn32AtOnce(String name) throws Exception {
    try (StreamDeployment d = StreamDeployment.start(StreamSystems.get(name))) {
      StreamClient client = d.client();
      for (StreamPayload payload : StreamPayload.values()) {
        assertEquals(5_000, client.stream(5_000, payload), payload.id());
        assertEquals(1, client.stream(1, payload), payload.id());
      }
      ExecutorService threads = Executors.newFixedThreadPool(32);
      try {
        List<Future<Long>> streams = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
          StreamPayload payload = StreamPayload.values()[i % 2];
          streams.add(threads.submit(() -> client.stream(1_000, payload)));
        }
        for (Future<Long> stream : streams) {
          assertEquals(1_000, stream.get());
        }
      } finally {
        threads.shutdownNow();
      }
    }
  }

  @Test
  void aTallyFailsAStreamThatEndsShort() {
    StreamTally tally = new StreamTally(3, 16);
    tally.accept(16);
    tally.accept(16);
    tally.completed();
    IllegalStateException failure = assertThrows(IllegalStateException.class, tally::await);
    assertEquals(
        "the stream failed: java.lang.IllegalStateException: the stream ended after 2 of 3"
            + " elements",
        failure.getMessage());
  }

  @Test
  void aTallyRefusesAWrongElementAndOneTooMany() {
    StreamTally wrong = new StreamTally(3, 16);
    assertFalse(wrong.accept(15));
    assertEquals(
        "the stream failed: java.lang.IllegalStateException: element 0 has 15 characters,"
            + " expected 16",
        assertThrows(IllegalStateException.class, wrong::await).getMessage());

    StreamTally tooMany = new StreamTally(1, 16);
    tooMany.accept(16);
    assertFalse(tooMany.accept(16));
    assertEquals(
        "the stream failed: java.lang.IllegalStateException: the stream sent more than the 1"
            + " asked for",
        assertThrows(IllegalStateException.class, tooMany::await).getMessage());
  }
}
