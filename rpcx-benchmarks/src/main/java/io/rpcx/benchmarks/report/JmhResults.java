package io.rpcx.benchmarks.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/** Reads a JMH result file ({@code -rf json}), plain or gzipped ({@code .json.gz}). Stateless. */
final class JmhResults {
  private static final ObjectMapper JSON = new ObjectMapper();

  private JmhResults() {}

  /** The file's array of results, one per benchmark and parameter combination. */
  static JsonNode read(Path file) throws IOException {
    try (InputStream raw = Files.newInputStream(file);
        InputStream in =
            file.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw) {
      JsonNode results = JSON.readTree(in);
      if (results == null || !results.isArray()) {
        throw new IOException(file + ": not a JMH result file (expected: a JSON array)");
      }
      return results;
    }
  }
}
