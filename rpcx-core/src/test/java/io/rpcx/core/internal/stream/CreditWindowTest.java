package io.rpcx.core.internal.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rpcx.core.internal.protocol.SizeHints;
import org.junit.jupiter.api.Test;

/** How far a stream's receiver reads ahead: the window in messages, and about the byte limit. */
class CreditWindowTest {
  private static final long MIB = 1 << 20;

  private static CreditWindow window(int messages) {
    return new CreditWindow(messages, 4 * MIB, new SizeHints(0));
  }

  @Test
  void theFirstStreamOfAMethodGrantsTheFirstGrantBeforeItsSizeIsKnown() {
    assertEquals(CreditWindow.FIRST_GRANT, window(1024).more(0, 0, 0));
    assertEquals(8, window(8).more(0, 0, 0));
  }

  @Test
  void laterStreamsOfTheMethodStartFromTheSizeOfItsLastStreamMessage() {
    SizeHints hints = new SizeHints(0);
    new CreditWindow(1024, 4 * MIB, hints).received(20);
    assertEquals(CreditWindow.FIRST_GRANT, new CreditWindow(1024, 4 * MIB, hints).more(0, 0, 0));
    assertEquals(8, new CreditWindow(8, 4 * MIB, hints).more(0, 0, 0));
    new CreditWindow(1024, 4 * MIB, hints).received((int) MIB);
    assertEquals(4, new CreditWindow(1024, 4 * MIB, hints).more(0, 0, 0), "4 MiB of 1 MiB");
  }

  @Test
  void smallMessagesRunWithTheWholeWindowAheadOfTheSubscriber() {
    CreditWindow window = window(1024);
    window.received(20);
    // 32 granted, none delivered: the rest of the window, whatever was requested.
    assertEquals(1024 - 32, window.more(32, 0, 200));
    // The whole window is ahead: nothing until the subscriber takes some.
    assertEquals(0, window.more(1024, 0, 200));
  }

  @Test
  void creditGoesOutInBatchesOfAQuarterOfTheLimit() {
    CreditWindow window = window(1024);
    window.received(20);
    assertEquals(0, window.more(1024, 255, 0));
    assertEquals(256, window.more(1024, 256, 0));
  }

  @Test
  void largeMessagesAreHeldToTheByteLimit() {
    CreditWindow window = window(1024);
    window.received((int) MIB);
    // Four 1 MiB messages fit in 4 MiB: with one ahead, three more.
    assertEquals(3, window.more(1, 0, MIB));
    assertEquals(0, window.more(4, 0, 4 * MIB));
    assertEquals(1, window.more(4, 1, 0));
  }

  @Test
  void theLargestMessageSeenSetsTheCount() {
    CreditWindow window = window(1024);
    window.received((int) MIB);
    window.received(16);
    assertEquals(4, window.more(0, 0, 0));
  }

  @Test
  void aMessageOverTheByteLimitStillPassesOneAtATime() {
    CreditWindow window = window(1024);
    window.received((int) (8 * MIB));
    assertEquals(1, window.more(5, 5, 0), "nothing ahead: always room for one");
    assertEquals(0, window.more(6, 5, 0));
  }

  @Test
  void nothingIsGrantedWhileMoreThanTheByteLimitIsHeld() {
    CreditWindow window = window(1024);
    window.received(1000);
    assertEquals(0, window.more(600, 100, 5 * MIB));
  }
}
