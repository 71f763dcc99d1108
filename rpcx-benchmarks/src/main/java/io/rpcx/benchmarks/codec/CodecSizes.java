package io.rpcx.benchmarks.codec;

/**
 * Prints the encoded size of each seed type with RPCX and with generated protobuf code:
 * {@code java -cp rpcx-benchmarks/target/benchmarks.jar io.rpcx.benchmarks.codec.CodecSizes}.
 */
public final class CodecSizes {
  private CodecSizes() {}

  public static void main(String[] args) {
    byte[] buffer = new byte[4 * 1024 * 1024];
    System.out.println("| shape | RPCX bytes | protobuf bytes | ratio |");
    System.out.println("|---|---:|---:|---:|");
    for (String shape : CodecShapes.NAMES) {
      int rpcx = CodecShapes.shape("rpcx", shape).encode(buffer);
      int protobuf = CodecShapes.shape("protobuf", shape).encode(buffer);
      System.out.printf("| %s | %d | %d | %.3f |%n", shape, rpcx, protobuf, (double) rpcx / protobuf);
    }
  }
}
