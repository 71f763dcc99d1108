package io.rpcx.core.internal.protocol;

import com.google.protobuf.CodedInputStream;
import java.nio.ByteBuffer;

/** A {@link Payload} over one byte buffer (from its position to its limit), for tests and tools. */
public final class ByteBufferPayload implements Payload {
  private final ByteBuffer buffer;

  public ByteBufferPayload(ByteBuffer buffer) {
    this.buffer = buffer.slice();
  }

  public static ByteBufferPayload of(byte[] bytes) {
    return new ByteBufferPayload(ByteBuffer.wrap(bytes));
  }

  @Override
  public int length() {
    return buffer.remaining();
  }

  @Override
  public CodedInputStream input(int offset, int length) {
    return CodedInputStream.newInstance(buffer.slice(offset, length));
  }

  @Override
  public boolean regionEquals(int offset, byte[] expected) {
    if (offset + expected.length > buffer.limit()) {
      return false;
    }
    for (int i = 0; i < expected.length; i++) {
      if (buffer.get(offset + i) != expected[i]) {
        return false;
      }
    }
    return true;
  }

  @Override
  public byte[] bytes(int offset, int length) {
    byte[] bytes = new byte[length];
    buffer.get(offset, bytes);
    return bytes;
  }

  @Override
  public void release() {}
}
