package io.rpcx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.abort;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What the tests of gRPC clients in other languages share: the {@code .proto} files as {@code rpcx
 * proto} gives them, the commands docs/GRPC.md shows, external programs run to their end with a
 * timeout, and a skip naming the Debian packages a test needs when they are missing.
 */
final class ForeignClients {
  /** The page whose commands the tests run. */
  static final Path GRPC_MD = Path.of("..", "docs", "GRPC.md");

  private ForeignClients() {}

  /**
   * Writes the files of {@code rpcx proto ADDRESS --out DIRECTORY}, the command docs/GRPC.md
   * shows, and returns them.
   */
  static List<Path> exportProtos(String address, Path directory) throws IOException {
    Cli.Run run = Cli.run("proto", address, "--out", directory.toString());
    assertEquals(0, run.exit(), run::toString);
    List<Path> files;
    try (Stream<Path> written = Files.walk(directory)) {
      files = written.filter(file -> file.toString().endsWith(".proto")).sorted().toList();
    }
    assertTrue(!files.isEmpty(), run::toString);
    return files;
  }

  /**
   * The code blocks of docs/GRPC.md that follow a line {@code <!-- COMMENT -->}, in the page's
   * order, each without its fences.
   */
  static List<String> blocksAfter(String comment) throws IOException {
    List<String> lines = Files.readAllLines(GRPC_MD);
    List<String> blocks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (!lines.get(i).equals("<!-- " + comment + " -->")) {
        continue;
      }
      assertTrue(lines.get(i + 1).startsWith("```"), GRPC_MD + ": a code block after line " + (i + 1));
      StringBuilder block = new StringBuilder();
      int end = i + 2;
      while (!lines.get(end).equals("```")) {
        block.append(lines.get(end++)).append('\n');
      }
      blocks.add(block.toString());
      i = end;
    }
    assertFalse(blocks.isEmpty(), GRPC_MD + " has no block after <!-- " + comment + " -->");
    return blocks;
  }

  /** How a program ended: its exit code, and what it printed on stdout and stderr together. */
  record Finished(int exit, String output) {}

  /**
   * Runs {@code command} in {@code directory} to its end, within {@code timeout}, with the
   * environment of this JVM minus every {@code PYTHON*} and {@code GO*} variable (so that the
   * Debian installation runs as installed) plus {@code environment}.
   */
  static Finished run(Path directory, Duration timeout, Map<String, String> environment,
      List<String> command) throws IOException, InterruptedException {
    Path output = Files.createTempFile("rpcx-foreign-client", ".txt");
    try {
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(directory.toFile())
              .redirectErrorStream(true)
              .redirectOutput(output.toFile());
      builder.environment().keySet()
          .removeIf(name -> name.startsWith("PYTHON") || name.startsWith("GO"));
      builder.environment().putAll(environment);
      Process process = builder.start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly().waitFor();
        throw new AssertionError(command + " did not end within " + timeout + "; its output:\n"
            + Files.readString(output));
      }
      return new Finished(process.exitValue(), Files.readString(output));
    } finally {
      Files.delete(output);
    }
  }

  /**
   * Skips the test unless every one of {@code paths} exists, naming the Debian {@code packages}
   * that install them.
   */
  static void skipWithout(String packages, Path... paths) {
    List<String> missing = Stream.of(paths).filter(path -> !Files.exists(path)).map(Path::toString)
        .toList();
    if (!missing.isEmpty()) {
      skip(String.join(", ", missing), packages);
    }
  }

  /** Skips the test: {@code what} is missing, which the Debian {@code packages} install. */
  static void skip(String what, String packages) {
    abort("needs " + what + ": install the Debian packages " + packages + " (apt-get install "
        + packages + ")");
  }
}
