package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rpcx.client.RpcxClient;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.server.RpcxServer;
import io.rpcx.testsuite.ShapesService.Shape;
import io.rpcx.testsuite.ShapesService.Values;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every value shape crosses the real stack at sizes below, at and above each size threshold inside
 * RPCX: payloads staged on the heap (expected up to 64 KiB) and re-encoded when staging passes 256
 * KiB, frames gathered as composites and values copied to the heap below 64 KiB, the length bytes
 * reserved from the last size, and the frame limit. Each case starts on a fresh client and server,
 * so that the first call meets empty size hints, then repeats the large call after a small one.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LargeValuesTest {
  private static final int KIB = 1024;

  static Stream<Arguments> shapesAndSizes() {
    int[] sizes = {
      KIB,
      64 * KIB - 256, 64 * KIB, 64 * KIB + 256,
      256 * KIB - 256, 256 * KIB, 256 * KIB + 256, 300 * KIB,
      1024 * KIB
    };
    List<Arguments> cases = new ArrayList<>();
    for (Shape shape : Shape.values()) {
      for (int size : sizes) {
        cases.add(Arguments.of(shape, size));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} of {1} bytes")
  @MethodSource("shapesAndSizes")
  void everyShapeRoundTripsFirstAndAfterASmallValue(Shape shape, int size) {
    try (Pair pair = new Pair(16 * 1024 * 1024)) {
      ShapesService shapes = pair.shapes();
      Object large = Values.of(shape, size);
      Object small = Values.of(shape, 10);
      // The client encodes the request, the server decodes it and encodes the reply.
      assertSame(large, echo(shapes, shape, large), "first call");
      assertSame(small, echo(shapes, shape, small), "small call");
      assertSame(large, echo(shapes, shape, large), "large call after a small one");
      // The server encodes a value made there; the client decodes it.
      assertSame(large, make(shapes, shape, size), "first made value");
      assertSame(small, make(shapes, shape, 10), "small made value");
      assertSame(large, make(shapes, shape, size), "large made value after a small one");
    }
  }

  @ParameterizedTest
  @EnumSource(Shape.class)
  void everyShapeUpToTheFrameLimitPassesAndOverItIsRefusedAsTooLarge(Shape shape) {
    int limit = 1024 * KIB;
    try (Pair pair = new Pair(limit)) {
      ShapesService shapes = pair.shapes();
      Object under = Values.of(shape, limit - 64 * KIB);
      assertSame(under, echo(shapes, shape, under), "just under the limit");

      ResourceExhaustedException request =
          assertThrows(
              ResourceExhaustedException.class,
              () -> echo(shapes, shape, Values.of(shape, limit + KIB)));
      assertEquals(
          "the request of shapes/" + echoMethod(shape) + " is over the frame limit of " + limit
              + " bytes",
          request.getMessage());

      ResourceExhaustedException reply =
          assertThrows(ResourceExhaustedException.class, () -> make(shapes, shape, limit + KIB));
      assertEquals(
          "shapes/" + makeMethod(shape) + " failed on 127.0.0.1:" + pair.server.port()
              + ": the reply is over the frame limit of " + limit + " bytes",
          reply.getMessage());

      // Nothing was sent over the limit, so the connection serves on.
      assertSame(under, make(shapes, shape, limit - 64 * KIB), "made just under the limit");
    }
  }

  @Test
  void aSeventeenMibRecordIsRefusedAsTooLargeUnderTheDefaultLimit() {
    try (Pair pair = new Pair(RpcxClient.DEFAULT_MAX_FRAME_SIZE)) {
      ShapesService shapes = pair.shapes();
      ResourceExhaustedException e =
          assertThrows(
              ResourceExhaustedException.class, () -> shapes.blob(Values.blob(17 * 1024 * KIB)));
      assertEquals(
          "the request of shapes/blob is over the frame limit of 16777216 bytes", e.getMessage());
      assertSame(Values.blob(300 * KIB), shapes.blob(Values.blob(300 * KIB)), "then a 300 KiB one");
    }
  }

  /** A fresh server and client, both with frame limit {@code maxFrameSize}. */
  private static final class Pair implements AutoCloseable {
    final RpcxServer server;
    final RpcxClient client;

    Pair(int maxFrameSize) {
      server =
          RpcxServer.builder().bindAddress("127.0.0.1").service(new ShapesService.Impl())
              .maxFrameSize(maxFrameSize).build().start();
      client =
          RpcxClient.builder().target("127.0.0.1", server.port()).maxFrameSize(maxFrameSize)
              .build();
    }

    ShapesService shapes() {
      return client.create(ShapesService.class);
    }

    @Override
    public void close() {
      client.close();
      server.stop();
    }
  }

  @SuppressWarnings("unchecked")
  private static Object echo(ShapesService shapes, Shape shape, Object value) {
    switch (shape) {
      case CLASS:
        return shapes.bean((ShapesService.Bean) value);
      case RECORD:
        return shapes.blob((ShapesService.Blob) value);
      case NESTED_RECORD:
        return shapes.envelope((ShapesService.Envelope) value);
      case LIST_OF_RECORDS:
        return shapes.blobList((List<ShapesService.Blob>) value);
      case MAP_OF_RECORDS:
        return shapes.blobMap((java.util.Map<String, ShapesService.Blob>) value);
      case BYTES:
        return shapes.bytes((byte[]) value);
      default:
        return shapes.string((String) value);
    }
  }

  private static Object make(ShapesService shapes, Shape shape, int size) {
    IntFunction<Object> maker;
    switch (shape) {
      case CLASS:
        maker = shapes::makeBean;
        break;
      case RECORD:
        maker = shapes::makeBlob;
        break;
      case NESTED_RECORD:
        maker = shapes::makeEnvelope;
        break;
      case LIST_OF_RECORDS:
        maker = shapes::makeBlobList;
        break;
      case MAP_OF_RECORDS:
        maker = shapes::makeBlobMap;
        break;
      case BYTES:
        maker = shapes::makeBytes;
        break;
      default:
        maker = shapes::makeString;
    }
    return maker.apply(size);
  }

  private static String echoMethod(Shape shape) {
    switch (shape) {
      case CLASS:
        return "bean";
      case RECORD:
        return "blob";
      case NESTED_RECORD:
        return "envelope";
      case LIST_OF_RECORDS:
        return "blobList";
      case MAP_OF_RECORDS:
        return "blobMap";
      case BYTES:
        return "bytes";
      default:
        return "string";
    }
  }

  private static String makeMethod(Shape shape) {
    String echo = echoMethod(shape);
    return "make" + Character.toUpperCase(echo.charAt(0)) + echo.substring(1);
  }

  /** Equal values, compared as arrays where they are arrays. */
  private static void assertSame(Object expected, Object actual, String when) {
    if (expected instanceof byte[]) {
      if (!Arrays.equals((byte[]) expected, (byte[]) actual)) {
        throw new AssertionError(when + ": the bytes differ");
      }
      return;
    }
    assertEquals(expected, actual, when);
  }
}
