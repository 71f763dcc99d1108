package io.rpcx.benchmarks.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * RPCX encodes the seed types within 1.1 times the size of generated protobuf code for equivalent
 * messages, and decodes what it encodes. (Sizes are deterministic; times are measured by {@link
 * CodecBenchmark}, never by a test.)
 */
class CodecSizeTest {

  @ParameterizedTest
  @ValueSource(strings = {"order", "orders", "info", "infoPhoto", "infoRecord"})
  void rpcxIsWithinATenthOfProtobufsSize(String shape) {
    byte[] buffer = new byte[4 * 1024 * 1024];
    CodecShapes.Shape rpcx = CodecShapes.shape("rpcx", shape);
    int rpcxSize = rpcx.encode(buffer);
    assertEquals(CodecShapes.pojo(shape), rpcx.decode(buffer, rpcxSize));
    int protobufSize = CodecShapes.shape("protobuf", shape).encode(new byte[4 * 1024 * 1024]);
    assertTrue(
        rpcxSize <= protobufSize * 1.1,
        shape + ": RPCX " + rpcxSize + " bytes, protobuf " + protobufSize + " bytes");
  }
}
