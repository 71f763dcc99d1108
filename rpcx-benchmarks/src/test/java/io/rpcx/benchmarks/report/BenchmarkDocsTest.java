package io.rpcx.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The benchmark pages keep summaries, not raw output (issue 27): no JMH JSON, profile, flame graph
 * or image under docs/benchmarks, a summary in every run's folder, and no link of a benchmark page
 * (or to one) that points at a file or heading that is not there.
 */
class BenchmarkDocsTest {
  /** What rpcx-benchmarks/results/ holds and docs/benchmarks/ must not (.gitignore lists them). */
  private static final Pattern RAW =
      Pattern.compile(".*\\.(json|gz|html|png|svg|jfr|collapsed|log)$");
  /** A summary is small; anything larger is raw output, whatever its name. */
  private static final long LARGEST_SUMMARY = 64 * 1024;
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern FENCE = Pattern.compile("(?ms)^```.*?^```");
  private static final Pattern CODE_SPAN = Pattern.compile("`[^`\\n]*`");
  private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6} +(.+?) *$");

  private final Path root = repositoryRoot();
  private final Path benchmarks = root.resolve("docs/benchmarks");

  @Test
  void docsKeepEachRunsSummaryAndNoRawOutput() throws IOException {
    List<String> raw = new ArrayList<>();
    try (Stream<Path> files = Files.walk(benchmarks)) {
      files
          .filter(Files::isRegularFile)
          .filter(
              f -> RAW.matcher(f.getFileName().toString()).matches() || size(f) > LARGEST_SUMMARY)
          .forEach(f -> raw.add(root.relativize(f) + " (" + size(f) + " bytes)"));
    }
    assertEquals(
        List.of(),
        raw,
        "raw benchmark output belongs in rpcx-benchmarks/results/ (rpcx-benchmarks/README.md,"
            + " \"Where results go, and what to commit\"); keep its summary.md");

    List<String> withoutSummary = new ArrayList<>();
    try (Stream<Path> runs = Files.list(benchmarks)) {
      runs.filter(Files::isDirectory)
          .filter(run -> !Files.isRegularFile(run.resolve("README.md")))
          .forEach(run -> withoutSummary.add(root.relativize(run).toString()));
    }
    assertEquals(List.of(), withoutSummary, "every run's folder says what it is in README.md");
  }

  @Test
  void linksOfAndToTheBenchmarkPagesResolve() throws IOException {
    List<Path> pages = new ArrayList<>();
    pages.add(root.resolve("README.md"));
    pages.add(root.resolve("rpcx-benchmarks/README.md"));
    try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
      docs.filter(f -> f.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    Map<Path, Set<String>> anchors = new HashMap<>();
    List<String> broken = new ArrayList<>();
    int checked = 0;
    for (Path page : pages) {
      boolean benchmarkPage =
          page.startsWith(benchmarks)
              || page.endsWith("docs/BENCHMARKS.md")
              || page.endsWith("rpcx-benchmarks/README.md");
      Matcher link = LINK.matcher(prose(Files.readString(page)));
      while (link.find()) {
        String target = link.group(1);
        if (target.matches("^[a-z]+:.*")) {
          continue; // https:, mailto:
        }
        String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
        String anchor = target.contains("#") ? target.substring(target.indexOf('#') + 1) : null;
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        boolean intoBenchmarks =
            resolved.startsWith(benchmarks) || resolved.endsWith("docs/BENCHMARKS.md");
        if (!benchmarkPage && !intoBenchmarks) {
          continue; // other pages are other people's; only links that concern these are checked
        }
        checked++;
        String where = root.relativize(page) + ": " + target;
        if (!Files.exists(resolved)) {
          broken.add(where + " (no such file)");
        } else if (anchor != null
            && resolved.toString().endsWith(".md")
            && !anchors
                .computeIfAbsent(resolved, BenchmarkDocsTest::headingAnchors)
                .contains(anchor)) {
          broken.add(where + " (no such heading)");
        }
      }
    }
    assertTrue(checked > 100, "only " + checked + " links checked: is the pattern still right?");
    assertEquals(List.of(), broken, "links of the benchmark pages");
  }

  @Test
  void anchorsAreGitHubs() {
    assertEquals(
        "what-bounds-the-misses-issue-18s-run-b9fbfae",
        slug("What bounds the misses (issue 18's run, b9fbfae)"));
    assertEquals(
        "every-system--workload--thread-count", slug("Every system × workload × thread count"));
    assertEquals("codec-issue-3-targets", slug("Codec (`issue 3` targets)"));
  }

  /** The text a reader sees as prose: code blocks and code spans removed. */
  private static String prose(String markdown) {
    return CODE_SPAN.matcher(FENCE.matcher(markdown).replaceAll("")).replaceAll("");
  }

  /** The anchors GitHub gives the headings of a page; a repeated heading gets -1, -2... */
  private static Set<String> headingAnchors(Path page) {
    String text;
    try {
      text = FENCE.matcher(Files.readString(page)).replaceAll("");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Set<String> anchors = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    Matcher heading = HEADING.matcher(text);
    while (heading.find()) {
      String slug = slug(heading.group(1));
      int n = seen.merge(slug, 1, Integer::sum);
      anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
    }
    return anchors;
  }

  /** GitHub's rule: lower case; letters, digits, '-' and '_' kept; spaces to '-'; the rest gone. */
  static String slug(String heading) {
    StringBuilder slug = new StringBuilder();
    heading
        .trim()
        .toLowerCase(Locale.ROOT)
        .codePoints()
        .forEach(
            c -> {
              if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
              } else if (c == ' ') {
                slug.append('-');
              }
            });
    return slug.toString();
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The checkout: the first folder up from the module's that holds docs/BENCHMARKS.md. */
  private static Path repositoryRoot() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("docs/BENCHMARKS.md"))) {
        return dir;
      }
    }
    throw new IllegalStateException(
        "no docs/BENCHMARKS.md above " + Path.of("").toAbsolutePath());
  }
}
