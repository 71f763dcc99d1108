package io.rpcx.core.internal.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import io.rpcx.core.StatusCode;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * The hand-written GOAWAY payload is message {@code GoAway} of rpcx.proto: protoc's generated class
 * writes the same bytes and reads what it writes, and the other way round.
 */
class GoAwayTest {

  private static io.rpcx.core.internal.protocol.proto.GoAway generated(StatusCode code, String message) {
    return io.rpcx.core.internal.protocol.proto.GoAway.newBuilder()
        .setCodeValue(code.number())
        .setMessage(message)
        .build();
  }

  @Test
  void writesTheBytesOfTheGeneratedMessage() throws Exception {
    for (StatusCode code : StatusCode.values()) {
      for (String message : new String[] {"", "server stopping", "é ü 中文 \uD83D\uDE00", "x".repeat(300)}) {
        byte[] written = new GoAway(code, message).encode();
        assertArrayEquals(generated(code, message).toByteArray(), written, code + " " + message);
        io.rpcx.core.internal.protocol.proto.GoAway read =
            io.rpcx.core.internal.protocol.proto.GoAway.parseFrom(written);
        assertEquals(code.number(), read.getCodeValue());
        assertEquals(message, read.getMessage());
      }
    }
  }

  @Test
  void aGoAwayOfOneConnectionOnlyIsFieldThreeAndAbsentFromTheServersOwn() throws Exception {
    byte[] retired = new GoAway(StatusCode.OK, "maximum age", true).encode();
    assertArrayEquals(
        generated(StatusCode.OK, "maximum age").toBuilder().setConnectionOnly(true).build()
            .toByteArray(),
        retired);
    assertTrue(GoAway.parse(ByteBuffer.wrap(retired)).connectionOnly());
    // A server that predates the field: its GOAWAY is the server's own.
    GoAway older = GoAway.parse(ByteBuffer.wrap(generated(StatusCode.OK, "stopping").toByteArray()));
    assertFalse(older.connectionOnly());
    assertFalse(
        io.rpcx.core.internal.protocol.proto.GoAway.parseFrom(
                new GoAway(StatusCode.OK, "stopping").encode())
            .getConnectionOnly());
  }

  @Test
  void readsTheGeneratedMessage() throws Exception {
    GoAway read =
        GoAway.parse(ByteBuffer.wrap(generated(StatusCode.UNAVAILABLE, "draining").toByteArray()));
    assertEquals(StatusCode.UNAVAILABLE, read.code());
    assertEquals("draining", read.message());

    GoAway empty = GoAway.parse(ByteBuffer.allocate(0));
    assertEquals(StatusCode.OK, empty.code());
    assertEquals("", empty.message());
  }

  @Test
  void skipsFieldsItDoesNotKnowAndReadsAnUnknownCodeAsInternal() throws Exception {
    byte[] newer =
        generated(StatusCode.OK, "bye").toBuilder()
            .setCodeValue(42)
            .setUnknownFields(
                UnknownFieldSet.newBuilder()
                    .addField(9, UnknownFieldSet.Field.newBuilder().addVarint(7).build())
                    .build())
            .build()
            .toByteArray();
    GoAway read = GoAway.parse(ByteBuffer.wrap(newer));
    assertEquals(StatusCode.INTERNAL, read.code());
    assertEquals("bye", read.message());
  }

  @Test
  void refusesWhatTheGeneratedParserRefuses() {
    byte[][] malformed = {
      {0x12, 0x05, 'a'}, // message longer than the payload
      {0x12, 0x02, (byte) 0xc3, 0x28}, // invalid UTF-8
      {0x0c}, // end-group tag with no group open
    };
    for (byte[] payload : malformed) {
      assertThrows(
          InvalidProtocolBufferException.class,
          () -> io.rpcx.core.internal.protocol.proto.GoAway.parseFrom(payload));
      assertThrows(InvalidProtocolBufferException.class, () -> GoAway.parse(ByteBuffer.wrap(payload)));
    }
  }
}
