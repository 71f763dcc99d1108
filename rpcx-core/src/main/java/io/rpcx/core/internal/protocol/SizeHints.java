package io.rpcx.core.internal.protocol;

import io.rpcx.core.internal.codec.ProtoWriter;

/**
 * The sizes one method's frames and values had the last time they were encoded, to size the next
 * buffer ({@code Frames.encode}) and to reserve the right number of length bytes. Each client
 * method and each published method has its own. Thread-safe in the only way a hint needs: every
 * field is written by whichever thread encoded last, so a hint may be slightly stale, which costs
 * at most a regrown buffer or a moved length, never a wrong byte.
 */
public final class SizeHints {
  private volatile int request = 256;
  private volatile int reply = 256;
  private volatile int replyValue;
  private volatile int streamMessage;
  private final int[] arguments;

  /** Hints for a method of {@code parameterCount} parameters. */
  public SizeHints(int parameterCount) {
    this.arguments = new int[parameterCount];
  }

  /** The size of the last request payload written. */
  public int request() {
    return request;
  }

  /** Records the size of a request payload written. */
  public void request(int size) {
    if (size != request) {
      request = size;
    }
  }

  /** The size of the last stream message received for this method, 0 before the first. */
  public int streamMessage() {
    return streamMessage;
  }

  /** Records the size of a stream message received. */
  public void streamMessage(int size) {
    if (size != streamMessage) {
      streamMessage = size;
    }
  }

  /** The size of the last reply payload written. */
  public int reply() {
    return reply;
  }

  /** Records the size of a reply payload written. */
  public void reply(int size) {
    if (size != reply) {
      reply = size;
    }
  }

  /** Each argument's length the last time, for {@link RequestWriter#write}; shared and racy. */
  public int[] arguments() {
    return arguments;
  }

  /** The reply value's length the last time. */
  public int replyValue() {
    return replyValue;
  }

  /** Records the reply value's length when its size class (the bytes of its length) changed. */
  public void replyValue(int length) {
    if (ProtoWriter.varint32Size(length) != ProtoWriter.varint32Size(replyValue)) {
      replyValue = length;
    }
  }
}
