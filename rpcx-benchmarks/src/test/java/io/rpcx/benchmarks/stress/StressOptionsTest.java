package io.rpcx.benchmarks.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StressOptionsTest {

  @Test
  void defaultsAreThePapersGrid() {
    StressOptions o = StressOptions.parse();
    assertEquals(List.of("rpcx", "grpc", "feign"), o.systems);
    assertEquals(List.of(10, 110, 210, 310, 410, 510, 610, 710, 810, 910), o.threads);
    assertEquals(List.of(10, 210, 410, 610, 810), o.requests);
    assertEquals(10, o.runs);
    assertEquals(600, o.cellTimeout.getSeconds());
    assertEquals(50, o.cellsPerSystem());
  }

  @Test
  void quickModeIsSmallAndLaterOptionsOverrideIt() {
    StressOptions o = StressOptions.parse("--quick", "--systems", "grpc", "--runs", "4");
    assertTrue(o.quick);
    assertEquals(List.of("grpc"), o.systems);
    assertEquals(List.of(10, 110, 210), o.threads);
    assertEquals(List.of(10, 110, 210), o.requests);
    assertEquals(4, o.runs);
    assertEquals(60, o.cellTimeout.getSeconds());
  }

  @Test
  void gridsAcceptRangesAndLists() {
    assertEquals(List.of(5, 7, 9), Grid.parse("5:9:2"));
    assertEquals(List.of(3, 1, 2), Grid.parse("3,1,2"));
    assertEquals(
        "grid: '9:5:1' is empty (expected: from <= to)",
        assertThrows(IllegalArgumentException.class, () -> Grid.parse("9:5:1")).getMessage());
    assertEquals(
        "grid: '1,0' has 0 (expected: > 0)",
        assertThrows(IllegalArgumentException.class, () -> Grid.parse("1,0")).getMessage());
  }

  @Test
  void badOptionsAreNamed() {
    assertEquals(
        "--runs: 1 (expected: >= 2)",
        assertThrows(IllegalArgumentException.class, () -> StressOptions.parse("--runs", "1"))
            .getMessage());
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> StressOptions.parse("--bogus"))
            .getMessage()
            .startsWith("unknown option '--bogus'"));
  }
}
