package io.rpcx.testsuite.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every Java snippet of the README and of docs/*.md compiles, and shows its imports, so that a
 * reader can paste it without hunting the jars for its packages:
 *
 * <ul>
 *   <li>each line of a snippet is in the doc's snippets class (this package), in the doc's order,
 *       and that class is compiled with the tests; a placeholder line (one with "{ ... }") stands
 *       for code the class spells out;
 *   <li>a snippet's {@code import} lines are imports of that class (in any order);
 *   <li>every type or static method the class imports that a snippet names is imported by the
 *       snippet itself: a snippet that uses {@code RpcxServer} says {@code import
 *       io.rpcx.server.RpcxServer;}.
 * </ul>
 *
 * Every doc with a Java snippet has its snippets class: a new one fails here until it has.
 */
class DocSnippetsTest {
  private static final Path ROOT = Path.of("..");
  private static final Path SNIPPETS =
      Path.of("src", "test", "java", "io", "rpcx", "testsuite", "docs");

  /** Each doc with Java snippets, and the class holding them. */
  private static final Map<String, String> CLASSES =
      Map.of(
          "README.md", "ReadmeSnippets.java",
          "docs/SPRING_BOOT.md", "SpringBootSnippets.java",
          "docs/CLUSTER.md", "ClusterSnippets.java",
          "docs/GRPC.md", "GrpcSnippets.java",
          "docs/HTTP.md", "HttpSnippets.java",
          "docs/OBSERVABILITY.md", "ObservabilitySnippets.java",
          "docs/STREAMING.md", "StreamingSnippets.java");

  private static final Pattern IMPORT = Pattern.compile("^import (static )?([\\w.]+)\\.(\\w+);$");

  static Stream<String> docs() {
    return new TreeSet<>(CLASSES.keySet()).stream();
  }

  @Test
  void everyDocWithJavaSnippetsHasItsSnippetsClass() throws IOException {
    List<String> withSnippets = new ArrayList<>();
    if (!javaSnippets(Files.readAllLines(ROOT.resolve("README.md"))).isEmpty()) {
      withSnippets.add("README.md");
    }
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      for (Path doc : docs.filter(path -> path.toString().endsWith(".md")).sorted().toList()) {
        if (!javaSnippets(Files.readAllLines(doc)).isEmpty()) {
          withSnippets.add("docs/" + doc.getFileName());
        }
      }
    }
    assertEquals(new TreeSet<>(CLASSES.keySet()), new TreeSet<>(withSnippets));
  }

  @ParameterizedTest
  @MethodSource("docs")
  void everyJavaSnippetIsInItsCompiledClassWithItsImports(String doc) throws IOException {
    List<List<String>> snippets = javaSnippets(Files.readAllLines(ROOT.resolve(doc)));
    assertFalse(snippets.isEmpty(), doc + " has Java snippets");
    Path source = SNIPPETS.resolve(CLASSES.get(doc));
    List<String> code = Files.readAllLines(source).stream().map(String::strip).toList();
    Map<String, String> classImports = imports(code);
    int from = 0;
    for (List<String> snippet : snippets) {
      Map<String, String> snippetImports = imports(snippet);
      for (String line : snippetImports.values()) {
        assertTrue(
            classImports.containsValue(line),
            doc + "'s line\n  " + line + "\nis not an import of " + source.getFileName()
                + ": a snippet's imports must be the ones its compiled copy has");
      }
      for (String line : snippet) {
        if (line.startsWith("import ") || line.contains("{ ... }")) {
          continue;
        }
        int at = indexOf(code, line, from);
        assertTrue(
            at >= 0,
            doc + "'s line\n  " + line + "\nis not in " + source.getFileName() + " after line "
                + from + ": copy the snippet there, as it is, so that it is compiled");
        from = at + 1;
      }
      List<String> missing = new ArrayList<>();
      classImports.forEach(
          (name, line) -> {
            if (!snippetImports.containsKey(name) && names(snippet, name)) {
              missing.add(line);
            }
          });
      missing.sort(null);
      assertEquals(
          List.of(), missing,
          doc + "'s snippet starting\n  " + snippet.get(0) + "\nnames types it does not import:"
              + " add these lines at its top");
    }
  }

  /** The lines of each ```java block, stripped, without blank lines. */
  private static List<List<String>> javaSnippets(List<String> text) {
    List<List<String>> snippets = new ArrayList<>();
    List<String> current = null;
    for (String line : text) {
      if (current == null && line.strip().equals("```java")) {
        current = new ArrayList<>();
      } else if (current != null && line.strip().equals("```")) {
        snippets.add(current);
        current = null;
      } else if (current != null && !line.isBlank()) {
        current.add(line.strip());
      }
    }
    return snippets;
  }

  /** The import lines among {@code lines}, by the simple name they import. */
  private static Map<String, String> imports(List<String> lines) {
    Map<String, String> imports = new TreeMap<>();
    for (String line : lines) {
      Matcher matcher = IMPORT.matcher(line);
      if (matcher.matches()) {
        imports.put(matcher.group(3), line);
      }
    }
    return imports;
  }

  /** Whether the code of {@code snippet} (not its imports, not its comments) names {@code name}. */
  private static boolean names(List<String> snippet, String name) {
    Pattern word = Pattern.compile("(?<![\\w.])" + Pattern.quote(name) + "\\b");
    for (String line : snippet) {
      if (line.startsWith("import ")) {
        continue;
      }
      String code = line.replaceFirst("(^|\\s)//.*$", "");
      if (word.matcher(code).find()) {
        return true;
      }
    }
    return false;
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
