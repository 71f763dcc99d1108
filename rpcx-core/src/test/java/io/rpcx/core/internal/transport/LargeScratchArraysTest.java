package io.rpcx.core.internal.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The shared large arrays are lent to one use at a time: taken, an array is no one else's until
 * given back, whichever thread takes it; a few are kept, the longer ones, never one over the cap;
 * new ones are rounded up so that values of about the same size share them.
 */
class LargeScratchArraysTest {

  /** Takes every kept array, leaving the slots empty for the next test. */
  @AfterEach
  void emptyTheSlots() {
    for (int i = 0; i < LargeScratchArrays.SLOTS; i++) {
      LargeScratchArrays.take(1);
    }
  }

  @Test
  void anArrayGivenBackIsLentAgainForAValueAsLongOrShorter() {
    emptyTheSlots();
    byte[] first = LargeScratchArrays.take(100_000);
    LargeScratchArrays.give(first);
    byte[] again = LargeScratchArrays.take(90_000);
    assertTrue(first == again, "the same array");
  }

  @Test
  void aNewArrayIsRoundedUpSoThatASlightlyLongerValueFitsItToo() {
    byte[] array = LargeScratchArrays.take(LargeScratchArrays.GRAIN + 1);
    assertEquals(2 * LargeScratchArrays.GRAIN, array.length);
    byte[] last = LargeScratchArrays.take(LargeScratchArrays.MAX_KEPT - 1);
    assertEquals(LargeScratchArrays.MAX_KEPT, last.length);
    byte[] over = LargeScratchArrays.take(LargeScratchArrays.MAX_KEPT + 1);
    assertEquals(LargeScratchArrays.MAX_KEPT + 1, over.length);
  }

  @Test
  void atMostTheSlotsAreKeptAndTheLongerArraysWin() {
    emptyTheSlots();
    List<byte[]> given = new ArrayList<>();
    for (int i = 1; i <= LargeScratchArrays.SLOTS + 2; i++) {
      byte[] array = new byte[i * 100_000];
      given.add(array);
      LargeScratchArrays.give(array);
    }
    Set<byte[]> taken = Collections.newSetFromMap(new IdentityHashMap<>());
    for (int i = 0; i < LargeScratchArrays.SLOTS + 2; i++) {
      taken.add(LargeScratchArrays.take(1));
    }
    // The last SLOTS given were each longer than one kept before them.
    for (int i = 2; i < given.size(); i++) {
      assertTrue(taken.contains(given.get(i)), "kept " + given.get(i).length);
    }
    assertTrue(!taken.contains(given.get(0)), "the shortest was dropped");
  }

  @Test
  void anArrayOverTheCapIsNotKept() {
    emptyTheSlots();
    byte[] huge = new byte[LargeScratchArrays.MAX_KEPT + 1];
    LargeScratchArrays.give(huge);
    for (int i = 0; i < LargeScratchArrays.SLOTS; i++) {
      assertTrue(huge != LargeScratchArrays.take(1), "another array");
    }
  }

  @Test
  void threadsTakingAtOnceNeverGetTheSameArray() throws Exception {
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < 200; round++) {
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch allTaken = new CountDownLatch(threads);
        List<Future<byte[]>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          futures.add(
              pool.submit(
                  () -> {
                    start.await();
                    byte[] array = LargeScratchArrays.take(70_000);
                    allTaken.countDown();
                    allTaken.await(); // hold it until every thread has one
                    return array;
                  }));
        }
        start.countDown();
        Set<byte[]> lent = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Future<byte[]> future : futures) {
          lent.add(future.get(10, TimeUnit.SECONDS));
        }
        assertEquals(threads, lent.size(), "round " + round);
        lent.forEach(LargeScratchArrays::give);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
