package io.rpcx.benchmarks.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;

/**
 * Where the tools of this module write when no folder is given: {@code
 * rpcx-benchmarks/results/<UTC date>-<name>} of the checkout they run in, which git ignores. Raw
 * output (JMH JSON, logs, profiles, charts) stays there; the {@code summary.md} a tool writes
 * beside it is what docs/benchmarks keeps (rpcx-benchmarks/README.md, "Where results go").
 * Stateless.
 */
public final class ResultsFolder {
  /** The ignored folder, relative to the repository root. */
  static final String RESULTS = "rpcx-benchmarks/results";
  /** A file only this repository's root has, to find it from a subfolder. */
  private static final String MARKER = "rpcx-benchmarks/run-report.sh";

  private ResultsFolder() {}

  /**
   * A folder that does not exist yet for a run called {@code name}, under the checkout that holds
   * the working directory ({@code rpcx-benchmarks-results/} of the working directory when it is
   * in none, as when benchmarks.jar was copied elsewhere). A second run on the same day gets
   * {@code -2}, then {@code -3}.
   */
  public static Path newFolder(String name) {
    return newFolder(name, Path.of("").toAbsolutePath(), LocalDate.now(ZoneOffset.UTC));
  }

  static Path newFolder(String name, Path workingDirectory, LocalDate date) {
    Path base = workingDirectory.resolve("rpcx-benchmarks-results");
    for (Path dir = workingDirectory; dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve(MARKER))) {
        base = dir.resolve(RESULTS);
        break;
      }
    }
    Path folder = base.resolve(date + "-" + name);
    for (int n = 2; Files.exists(folder); n++) {
      folder = base.resolve(date + "-" + name + "-" + n);
    }
    return folder;
  }
}
