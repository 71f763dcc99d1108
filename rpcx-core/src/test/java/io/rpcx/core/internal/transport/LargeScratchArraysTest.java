package io.rpcx.core.internal.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The shared large arrays are lent to one use at a time: taken, an array is no one else's until
 * given back, whichever thread takes it; at most four are lent at once (then none is, and the value
 * is read in place); the shortest kept array that fits is lent; the longer arrays are kept; new
 * ones are rounded up so that values of about the same size share them.
 */
class LargeScratchArraysTest {

  /** Each test starts with no array kept and none lent, and leaves none lent. */
  @BeforeEach
  @AfterEach
  void noneKeptAndNoneLent() {
    LargeScratchArrays.forgetKept();
    assertEquals(0, LargeScratchArrays.lent(), "arrays left lent");
  }

  @Test
  void anArrayGivenBackIsLentAgainForAValueAsLongOrShorter() {
    byte[] first = LargeScratchArrays.take(100_000);
    LargeScratchArrays.give(first);
    byte[] again = LargeScratchArrays.take(90_000);
    assertTrue(first == again, "the same array");
    LargeScratchArrays.give(again);
  }

  @Test
  void theShortestKeptArrayThatFitsIsLent() {
    byte[] small = LargeScratchArrays.take(100_000);
    byte[] large = LargeScratchArrays.take(LargeScratchArrays.MAX_KEPT);
    LargeScratchArrays.give(large);
    LargeScratchArrays.give(small);
    byte[] forSmall = LargeScratchArrays.take(70_000);
    byte[] forLarge = LargeScratchArrays.take(3_000_000);
    assertTrue(forSmall == small, "the small array for the small value");
    assertTrue(forLarge == large, "the large array for the large value");
    LargeScratchArrays.give(forSmall);
    LargeScratchArrays.give(forLarge);
  }

  @Test
  void aNewArrayIsRoundedUpSoThatASlightlyLongerValueFitsItToo() {
    byte[] array = LargeScratchArrays.take(LargeScratchArrays.GRAIN + 1);
    assertEquals(2 * LargeScratchArrays.GRAIN, array.length);
    byte[] last = LargeScratchArrays.take(LargeScratchArrays.MAX_KEPT - 1);
    assertEquals(LargeScratchArrays.MAX_KEPT, last.length);
    LargeScratchArrays.give(array);
    LargeScratchArrays.give(last);
    assertThrows(
        IllegalArgumentException.class,
        () -> LargeScratchArrays.take(LargeScratchArrays.MAX_KEPT + 1));
  }

  @Test
  void atMostFourAreLentAtOnceAndOneGivenBackIsLentAgain() {
    List<byte[]> lent = new ArrayList<>();
    for (int i = 0; i < LargeScratchArrays.SLOTS; i++) {
      byte[] array = LargeScratchArrays.take(70_000);
      assertNotNull(array);
      lent.add(array);
    }
    assertNull(LargeScratchArrays.take(70_000), "a fifth at once");
    LargeScratchArrays.give(lent.remove(0));
    byte[] again = LargeScratchArrays.take(70_000);
    assertNotNull(again);
    lent.add(again);
    lent.forEach(LargeScratchArrays::give);
  }

  @Test
  void theLongerArraysAreKept() {
    List<byte[]> given = new ArrayList<>();
    for (int i = 1; i <= LargeScratchArrays.SLOTS + 2; i++) {
      byte[] array = LargeScratchArrays.take(i * 100_000); // each longer than the last: a new one
      given.add(array);
      LargeScratchArrays.give(array);
    }
    Set<byte[]> kept = Collections.newSetFromMap(new IdentityHashMap<>());
    List<byte[]> taken = new ArrayList<>();
    for (int i = 0; i < LargeScratchArrays.SLOTS; i++) {
      taken.add(LargeScratchArrays.take(1));
    }
    kept.addAll(taken);
    for (int i = 2; i < given.size(); i++) {
      assertTrue(kept.contains(given.get(i)), "kept " + given.get(i).length);
    }
    assertFalse(kept.contains(given.get(0)), "the shortest was dropped");
    taken.forEach(LargeScratchArrays::give);
  }

  @Test
  void threadsTakingAtOnceNeverGetTheSameArray() throws Exception {
    int threads = LargeScratchArrays.SLOTS;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < 200; round++) {
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch allTaken = new CountDownLatch(threads);
        List<Future<byte[]>> futures = new ArrayList<>();
        int size = 70_000 + round;
        for (int t = 0; t < threads; t++) {
          futures.add(
              pool.submit(
                  () -> {
                    start.await();
                    byte[] array = LargeScratchArrays.take(size);
                    allTaken.countDown();
                    allTaken.await(10, TimeUnit.SECONDS); // hold it until every thread has one
                    return array;
                  }));
        }
        start.countDown();
        Set<byte[]> lent = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Future<byte[]> future : futures) {
          byte[] array = future.get(10, TimeUnit.SECONDS);
          assertNotNull(array);
          lent.add(array);
        }
        assertEquals(threads, lent.size(), "round " + round);
        lent.forEach(LargeScratchArrays::give);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
