package io.rpcx.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a tool writes when no folder is given, and how its command is recorded. */
class ResultsFolderTest {
  private static final LocalDate DAY = LocalDate.of(2026, 11, 28);

  @Test
  void insideACheckoutResultsGoToItsIgnoredFolderANewOneEachRun(@TempDir Path root)
      throws Exception {
    Files.createDirectories(root.resolve("rpcx-benchmarks"));
    Files.writeString(root.resolve("rpcx-benchmarks/run-report.sh"), "");
    Path module = Files.createDirectories(root.resolve("rpcx-benchmarks/src"));

    Path first = ResultsFolder.newFolder("stress", module, DAY);
    assertEquals(root.resolve("rpcx-benchmarks/results/2026-11-28-stress"), first);
    Files.createDirectories(first);
    assertEquals(
        root.resolve("rpcx-benchmarks/results/2026-11-28-stress-2"),
        ResultsFolder.newFolder("stress", root, DAY));
  }

  @Test
  void outsideACheckoutResultsGoUnderTheWorkingDirectory(@TempDir Path elsewhere) {
    assertEquals(
        elsewhere.resolve("rpcx-benchmarks-results/2026-11-28-connections"),
        ResultsFolder.newFolder("connections", elsewhere, DAY));
  }

  @Test
  void theCommandIsOneShellLineThatReadsBackAsGiven() {
    assertEquals(
        "java -cp rpcx-benchmarks/target/benchmarks.jar io.rpcx.benchmarks.report.ResultsFolder"
            + " --systems rpcx,grpc --out 'my results' 'it'\\''s'",
        CommandLine.of(
            ResultsFolder.class,
            List.of("--systems", "rpcx,grpc", "--out", "my results", "it's")));
  }
}
