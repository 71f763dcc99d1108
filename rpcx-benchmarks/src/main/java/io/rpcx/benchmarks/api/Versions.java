package io.rpcx.benchmarks.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The versions of the benchmarked libraries, as resolved by the build ({@code versions.properties},
 * filtered by Maven), so reports name exactly what was measured.
 */
public final class Versions {
  private static final Properties VERSIONS = load();

  private Versions() {}

  /**
   * The version of {@code library} ({@code grpc}, {@code dubbo}, {@code feign}, ...), or "?" if
   * unknown.
   */
  public static String get(String library) {
    return VERSIONS.getProperty(library, "?");
  }

  private static Properties load() {
    Properties p = new Properties();
    try (InputStream in = Versions.class.getResourceAsStream("versions.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p;
  }
}
