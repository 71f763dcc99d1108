package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every Java snippet of README.md and docs/CLUSTER.md compiles: each of its lines is in {@code
 * readme/ReadmeSnippets} (or {@code readme/ClusterSnippets}), in the page's order, and that class is
 * compiled with the tests. A snippet's placeholder line (one with "{ ... }") stands for code the
 * class spells out.
 */
class ReadmeSnippetsTest {
  private static final Path README = Path.of("..", "README.md");
  private static final Path SNIPPETS =
      Path.of("src", "test", "java", "io", "rpcx", "testsuite", "readme", "ReadmeSnippets.java");
  private static final Path CLUSTER = Path.of("..", "docs", "CLUSTER.md");
  private static final Path CLUSTER_SNIPPETS =
      Path.of("src", "test", "java", "io", "rpcx", "testsuite", "readme", "ClusterSnippets.java");

  @Test
  void everyJavaSnippetOfTheReadmeIsInTheCompiledSnippetsClass() throws IOException {
    assertSnippetsCompiled(README, SNIPPETS);
  }

  @Test
  void everyJavaSnippetOfTheClusterPageIsInItsCompiledSnippetsClass() throws IOException {
    assertSnippetsCompiled(CLUSTER, CLUSTER_SNIPPETS);
  }

  private static void assertSnippetsCompiled(Path page, Path snippetsClass) throws IOException {
    List<List<String>> snippets = javaSnippets(Files.readAllLines(page));
    assertFalse(snippets.isEmpty(), page + " has Java snippets");
    List<String> code = Files.readAllLines(snippetsClass).stream().map(String::strip).toList();
    int from = 0;
    for (List<String> snippet : snippets) {
      for (String line : snippet) {
        int at = indexOf(code, line, from);
        assertTrue(
            at >= 0,
            page.getFileName() + "'s line\n  "
                + line
                + "\nis not in "
                + snippetsClass.getFileName()
                + " after line "
                + from
                + ": copy the snippet there, as it is, so that it is compiled");
        from = at + 1;
      }
    }
  }

  /** The lines of each ```java block, stripped, without blank and placeholder lines. */
  private static List<List<String>> javaSnippets(List<String> readme) {
    List<List<String>> snippets = new ArrayList<>();
    List<String> current = null;
    for (String line : readme) {
      if (current == null && line.strip().equals("```java")) {
        current = new ArrayList<>();
      } else if (current != null && line.strip().equals("```")) {
        snippets.add(current);
        current = null;
      } else if (current != null && !line.isBlank() && !line.contains("{ ... }")) {
        current.add(line.strip());
      }
    }
    return snippets;
  }

  private static int indexOf(List<String> code, String line, int from) {
    for (int i = from; i < code.size(); i++) {
      if (code.get(i).equals(line)) {
        return i;
      }
    }
    return -1;
  }
}
