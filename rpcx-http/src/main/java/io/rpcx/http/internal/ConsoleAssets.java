package io.rpcx.http.internal;

import io.rpcx.server.http.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The service console's files, read once from the class path: its page at the console's path,
 * its script and style sheet beside it. Plain files, no build step; the page fetches nothing but
 * them and this server's own {@code /openapi.json} and calls. Immutable.
 */
final class ConsoleAssets {
  private static final String ROOT = "/io/rpcx/http/console/";
  /**
   * No script or style from anywhere else, no frames: the console runs only its own files, and
   * talks only to this server.
   */
  private static final String POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self';"
          + " img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  private record Asset(String contentType, byte[] bytes) {}

  private final String path;
  private final Map<String, Asset> assets;

  private ConsoleAssets(String path, Map<String, Asset> assets) {
    this.path = path;
    this.assets = assets;
  }

  /** The console at {@code path} (a path that ends with {@code /}). */
  static ConsoleAssets load(String path) {
    byte[] page =
        new String(read("index.html"), StandardCharsets.UTF_8)
            .replace("{{openapi}}", HttpJsonHandler.OPENAPI_PATH)
            .getBytes(StandardCharsets.UTF_8);
    return new ConsoleAssets(
        path,
        Map.of(
            path, new Asset("text/html; charset=utf-8", page),
            path + "console.js", new Asset("text/javascript; charset=utf-8", read("console.js")),
            path + "console.css", new Asset("text/css; charset=utf-8", read("console.css"))));
  }

  private static byte[] read(String name) {
    try (InputStream in = ConsoleAssets.class.getResourceAsStream(ROOT + name)) {
      if (in == null) {
        throw new IllegalStateException("the console's " + name + " is missing from rpcx-http's jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the console's " + name, e);
    }
  }

  /** Whether {@code requested} is one of the console's files. */
  boolean serves(String requested) {
    return assets.containsKey(requested)
        || requested.equals(path.substring(0, Math.max(1, path.length() - 1)));
  }

  /** Answers with the file at {@code requested}. */
  void respond(HttpExchange exchange, String requested) {
    Asset asset = assets.get(requested);
    if (asset == null) { // the console's path without its last slash: the page is one level down
      exchange.respond(308, Map.of("location", path), new byte[0]);
      return;
    }
    exchange.respond(
        200,
        Map.of(
            "content-type", asset.contentType(),
            "cache-control", "no-cache",
            "x-content-type-options", "nosniff",
            "content-security-policy", POLICY),
        asset.bytes());
  }
}
