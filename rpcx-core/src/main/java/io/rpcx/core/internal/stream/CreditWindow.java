package io.rpcx.core.internal.stream;

import io.rpcx.core.internal.protocol.SizeHints;

/**
 * How much {@code STREAM_CREDIT} the receiving side of one stream grants (docs/PROTOCOL.md, section
 * 5.3): it reads ahead of its subscriber, as a transport window does, keeping at most {@code
 * window} messages granted and not yet delivered, and about {@code maxBufferedBytes} in flight and
 * held: every message in flight or held counts as the largest message seen so far on the stream.
 * Before the first one arrives, at most {@value #FIRST_GRANT} messages are granted, and no more than
 * the byte limit takes of the method's last stream message ({@link SizeHints#streamMessage}) when
 * it had one: only a method's very first stream can start with 32 messages of unknown size. So a
 * stream of 16-byte messages runs with the whole window in flight, and one of 1 MiB chunks with
 * four (at the default 4 MiB), whatever the subscriber requests; a receiver with
 * nothing in flight or held always grants at least one message, so a message larger than the byte
 * limit still passes. Credit goes out in batches of at least a quarter of that limit, unless
 * nothing is in flight, and none while more than the byte limit is held.
 *
 * <p>The counts are the caller's: it asks {@link #more} from its one delivering thread, and calls
 * {@link #received} from the thread that receives messages. Thread-safe in that use.
 */
public final class CreditWindow {
  /** Messages granted at most before any message tells the size of this stream's messages. */
  public static final int FIRST_GRANT = 32;

  private final int window;
  private final long maxBufferedBytes;
  private final SizeHints hints;
  /** The largest message received on the stream, 0 before the first; written by one thread. */
  private volatile int largestMessage;

  /**
   * A window of {@code window} messages and about {@code maxBufferedBytes} (both positive) for a
   * stream of the method whose hints are {@code hints}.
   */
  public CreditWindow(int window, long maxBufferedBytes, SizeHints hints) {
    this.window = window;
    this.maxBufferedBytes = maxBufferedBytes;
    this.hints = hints;
  }

  /** Records a message of {@code size} bytes received; from the receiving thread only. */
  public void received(int size) {
    if (size > largestMessage) {
      largestMessage = size;
    }
    hints.streamMessage(size);
  }

  /**
   * The credit to grant now, or 0 to wait.
   *
   * @param granted credit granted so far, cumulative
   * @param delivered messages delivered to the subscriber so far
   * @param heldBytes bytes of the messages received and not yet delivered
   */
  public int more(long granted, long delivered, long heldBytes) {
    long ahead = granted - delivered; // in flight or held
    long limit = limit();
    long more = limit - ahead;
    if (ahead <= 0) {
      return (int) Math.max(1, more); // nothing in flight or held: always room for one
    }
    if (more < Math.max(1, limit / 4) || heldBytes > maxBufferedBytes) {
      return 0; // wait for a batch worth a frame, or for the subscriber to take what is held
    }
    return (int) more;
  }

  /**
   * The messages that may be in flight or held now: the window, or fewer when that many of the
   * largest message seen would take more than the byte limit.
   */
  private long limit() {
    int largest = largestMessage;
    if (largest == 0) {
      int first = Math.min(window, FIRST_GRANT);
      int guess = hints.streamMessage(); // the method's last stream's, if it had one
      return guess == 0 ? first : Math.max(1, Math.min(first, maxBufferedBytes / guess));
    }
    return Math.max(1, Math.min(window, maxBufferedBytes / largest));
  }
}
