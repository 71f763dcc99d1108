package io.rpcx.core.internal.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rpcx.core.internal.runtime.VirtualThreads;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A thread's scratch array is lent to one use at a time: taken, it is no one else's until given
 * back; a nested use gets a new one; a thread keeps one array, never one over the cap; a virtual
 * thread keeps none.
 */
class ScratchArraysTest {

  @Test
  void anArrayGivenBackIsLentAgainToTheSameThread() {
    byte[] first = ScratchArrays.take(1000);
    ScratchArrays.give(first);
    byte[] again = ScratchArrays.take(500);
    assertTrue(first == again, "the same array");
    ScratchArrays.give(again);
  }

  @Test
  void aTakenArrayIsNeverLentTwice() {
    byte[] outer = ScratchArrays.take(100);
    byte[] nested = ScratchArrays.take(100);
    assertTrue(outer != nested, "another array");
    ScratchArrays.give(nested);
    ScratchArrays.give(outer);
  }

  @Test
  void aThreadKeepsTheLongerOfTwoArraysGivenBack() {
    byte[] small = new byte[10];
    byte[] large = new byte[20_000];
    ScratchArrays.give(large);
    ScratchArrays.give(small);
    byte[] kept = ScratchArrays.take(1);
    assertTrue(kept.length >= large.length, "kept " + kept.length);
    ScratchArrays.give(kept);
  }

  @Test
  void anArrayTooShortIsReplacedByANewOneOfTheLengthAsked() {
    ScratchArrays.give(new byte[16]);
    byte[] longer = ScratchArrays.take(ScratchArrays.MAX_KEPT);
    assertEquals(ScratchArrays.MAX_KEPT, longer.length);
    ScratchArrays.give(longer);
    assertTrue(longer == ScratchArrays.take(17), "the same array");
    ScratchArrays.give(longer);
  }

  @Test
  void anArrayOverTheCapIsNotKept() {
    byte[] huge = ScratchArrays.take(ScratchArrays.MAX_KEPT + 1);
    ScratchArrays.give(huge);
    byte[] next = ScratchArrays.take(1);
    assertTrue(huge != next, "another array");
    assertTrue(next.length <= ScratchArrays.MAX_KEPT, "kept " + next.length);
    ScratchArrays.give(next);
  }

  @Test
  void eachThreadHasItsOwnArray() throws Exception {
    byte[] mine = ScratchArrays.take(64);
    ScratchArrays.give(mine);
    AtomicReference<byte[]> theirs = new AtomicReference<>();
    Thread other = new Thread(() -> theirs.set(ScratchArrays.take(64)));
    other.start();
    other.join(10_000);
    assertTrue(mine != theirs.get(), "another array");
    assertTrue(mine == ScratchArrays.take(64), "the same array");
    ScratchArrays.give(mine);
  }

  @Test
  void aVirtualThreadKeepsNoArray() throws Exception {
    assumeTrue(VirtualThreads.supported(), "virtual threads need Java 21 or later");
    AtomicReference<byte[]> first = new AtomicReference<>();
    AtomicReference<byte[]> second = new AtomicReference<>();
    Thread thread =
        VirtualThreads.factory("scratch-test-")
            .newThread(
                () -> {
                  byte[] array = ScratchArrays.take(64);
                  ScratchArrays.give(array);
                  first.set(array);
                  second.set(ScratchArrays.take(64));
                });
    thread.start();
    thread.join(10_000);
    assertTrue(first.get() != second.get(), "another array");
  }
}
