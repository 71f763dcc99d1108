package io.rpcx.registry.zookeeper;

import io.rpcx.core.discovery.ServiceEndpoint;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The data of a registration node: a small UTF-8 text a person can read with {@code zkCli.sh get},
 * and that clients parse as untrusted input.
 *
 * <pre>
 * rpcx-endpoint 1
 * host=10.0.0.7
 * port=9000
 * meta.instance=7c4f2b1e-...
 * meta.zone=eu-1
 * </pre>
 *
 * The first line names the format and its version. Then one {@code key=value} per line: {@code
 * host}, {@code port}, and {@code meta.<key>} for each metadata entry. Keys a reader does not know
 * are skipped (room for later fields); a repeated key, a line without {@code =}, bytes that are not
 * UTF-8, more than {@value #MAX_BYTES} bytes, or a value {@link ServiceEndpoint} refuses make the
 * whole record invalid, with a message that names the problem.
 */
final class EndpointRecord {
  static final String HEADER = "rpcx-endpoint 1";
  static final int MAX_BYTES = 16 * 1024;
  private static final String META = "meta.";

  private EndpointRecord() {}

  static byte[] encode(ServiceEndpoint endpoint) {
    StringBuilder text = new StringBuilder(HEADER).append('\n');
    text.append("host=").append(endpoint.host()).append('\n');
    text.append("port=").append(endpoint.port()).append('\n');
    for (Map.Entry<String, String> entry : endpoint.metadata().entrySet()) {
      text.append(META).append(entry.getKey()).append('=').append(entry.getValue()).append('\n');
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Parses a node's data.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  static ServiceEndpoint decode(byte[] data) {
    if (data == null || data.length == 0) {
      throw new IllegalArgumentException("no data");
    }
    if (data.length > MAX_BYTES) {
      throw new IllegalArgumentException(
          data.length + " bytes (expected: at most " + MAX_BYTES + ")");
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(data))
              .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("not UTF-8 text");
    }
    String[] lines = text.split("\n", -1);
    if (!lines[0].equals(HEADER)) {
      throw new IllegalArgumentException(
          "first line is not '" + HEADER + "' (an RPCX registration of another version, or not one)");
    }
    String host = null;
    String port = null;
    Map<String, String> metadata = new LinkedHashMap<>();
    Set<String> seen = new HashSet<>();
    for (int i = 1; i < lines.length; i++) {
      String line = lines[i];
      if (line.isEmpty()) {
        continue;
      }
      int equals = line.indexOf('=');
      if (equals <= 0) {
        throw new IllegalArgumentException("line " + (i + 1) + " is not key=value");
      }
      String key = line.substring(0, equals);
      String value = line.substring(equals + 1);
      if (!seen.add(key)) {
        throw new IllegalArgumentException("key '" + printable(key) + "' appears twice");
      }
      if (key.equals("host")) {
        host = value;
      } else if (key.equals("port")) {
        port = value;
      } else if (key.startsWith(META)) {
        metadata.put(key.substring(META.length()), value);
      }
      // other keys: written by a newer version, skipped
    }
    if (host == null || port == null) {
      throw new IllegalArgumentException("no " + (host == null ? "host" : "port"));
    }
    int portNumber;
    try {
      portNumber = Integer.parseInt(port);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("port '" + printable(port) + "' is not a number");
    }
    return ServiceEndpoint.of(host, portNumber, metadata);
  }

  private static String printable(String text) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length() && i < 64; i++) {
      char c = text.charAt(i);
      out.append(c < ' ' || c == 0x7f ? '?' : c);
    }
    return out.toString();
  }
}
