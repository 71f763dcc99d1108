package io.rpcx.core.internal.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rpcx.core.StatusCode;
import org.junit.jupiter.api.Test;

/**
 * The headers gRPC defines, as RPCX reads and writes them: {@code grpc-timeout} in every unit,
 * zero and malformed values; {@code grpc-message}'s percent-encoding both ways; status codes both
 * ways.
 */
class GrpcHeadersTest {

  @Test
  void grpcTimeoutInEveryUnit() {
    assertEquals(7_200_000, GrpcTimeout.parseMillis("2H"));
    assertEquals(180_000, GrpcTimeout.parseMillis("3M"));
    assertEquals(4_000, GrpcTimeout.parseMillis("4S"));
    assertEquals(99_999_999, GrpcTimeout.parseMillis("99999999m"));
    assertEquals(5, GrpcTimeout.parseMillis("5000u"));
    assertEquals(6, GrpcTimeout.parseMillis("6000000n"));
  }

  @Test
  void aTimeoutOfZeroOrUnderAMillisecondIsOneMillisecondNotNone() {
    for (String passed : new String[] {"0m", "0S", "0H", "300u", "999999n", "0n"}) {
      assertEquals(1, GrpcTimeout.parseMillis(passed), passed);
    }
  }

  @Test
  void aMalformedTimeoutIsRefused() {
    for (String bad : new String[] {"", "m", "5", "5x", "-5m", "123456789m", "1.5S", " 5m", "5 m"}) {
      assertEquals(-1, GrpcTimeout.parseMillis(bad), "'" + bad + "'");
    }
  }

  @Test
  void aTimeoutIsWrittenInTheFinestUnitThatFits() {
    assertEquals("1500m", GrpcTimeout.format(1_500));
    assertEquals("100000S", GrpcTimeout.format(100_000_000L)); // over 8 digits of ms
    assertEquals("99999999H", GrpcTimeout.format(Long.MAX_VALUE));
    assertEquals(1_500, GrpcTimeout.parseMillis(GrpcTimeout.format(1_500)));
  }

  @Test
  void grpcMessageIsPercentEncodedUtf8BothWays() {
    assertEquals("plain text", GrpcStatus.encodeMessage("plain text"));
    assertEquals("50%25 d%C3%A9j%C3%A0%0Anext", GrpcStatus.encodeMessage("50% d\u00e9j\u00e0\nnext"));
    for (String text : new String[] {"", "a", "%", "%%41", "\uD83D\uDE00", "tab\there", "100%"}) {
      assertEquals(text, GrpcStatus.decodeMessage(GrpcStatus.encodeMessage(text)), text);
    }
    assertEquals("bad %zz escape %4", GrpcStatus.decodeMessage("bad %zz escape %4"), "kept as it is");
  }

  @Test
  void everyRpcxStatusComesBackAsItselfThroughGrpc() {
    for (StatusCode status : StatusCode.values()) {
      assertEquals(status, GrpcStatus.toRpcx(GrpcStatus.of(status)), status.name());
    }
  }

  @Test
  void grpcCodesRpcxHasNoNameForMapToTheNearestMeaning() {
    assertEquals(StatusCode.BAD_REQUEST, GrpcStatus.toRpcx(GrpcStatus.OUT_OF_RANGE));
    assertEquals(StatusCode.BAD_REQUEST, GrpcStatus.toRpcx(GrpcStatus.FAILED_PRECONDITION));
    assertEquals(StatusCode.REMOTE_FAILURE, GrpcStatus.toRpcx(GrpcStatus.NOT_FOUND));
    assertEquals(StatusCode.REMOTE_FAILURE, GrpcStatus.toRpcx(GrpcStatus.PERMISSION_DENIED));
    assertEquals(StatusCode.INTERNAL, GrpcStatus.toRpcx(GrpcStatus.DATA_LOSS));
    assertEquals(StatusCode.INTERNAL, GrpcStatus.toRpcx(42));
    assertEquals("code 42", GrpcStatus.name(42));
    assertEquals("UNAUTHENTICATED", GrpcStatus.name(GrpcStatus.UNAUTHENTICATED));
  }
}
