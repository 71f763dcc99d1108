package io.rpcx.core.discovery;

import io.rpcx.core.InvalidSettingException;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One server that publishes a service: its host, port and a few metadata entries (a zone, a
 * version, the id of the server instance). Immutable; equal when host, port and metadata are.
 *
 * <p>Where the server runs, for balancers that prefer nearby servers, is carried in two metadata
 * entries that discoveries fill in when they know them: {@link #ZONE} (a Kubernetes endpoint's
 * zone, a cloud availability zone) and {@link #NODE} (the machine or Kubernetes node).
 *
 * <p>Every value is checked when an endpoint is made, so an endpoint read from a registry, which is
 * untrusted input, is either valid or rejected with a message naming the problem: a host of at most
 * 253 printable characters without spaces, a port in 1-65535, at most 32 metadata entries with keys
 * of at most 64 characters {@code [a-z0-9._-]} and values of at most 256 characters.
 *
 * <p><b>Protocol.</b> The metadata entry {@value #PROTOCOL} says which protocol the server speaks at
 * this address: {@value #RPCX} (RPCX's own, also when the entry is absent) or {@value #GRPC} (gRPC
 * over HTTP/2: an RPCX client then calls it as a gRPC server that implements the service's exported
 * definitions, docs/GRPC.md). An endpoint written {@code grpc://host:port} has it set; any other
 * value is refused.
 *
 * <pre>{@code
 * ServiceEndpoint endpoint = ServiceEndpoint.of("10.0.0.7", 9000, Map.of("zone", "eu-1"));
 * ServiceEndpoint parsed = ServiceEndpoint.parse("orders-1.internal:9000");
 * ServiceEndpoint grpc = ServiceEndpoint.parse("grpc://orders-go.internal:50051");
 * }</pre>
 */
public final class ServiceEndpoint {
  /** Most metadata entries an endpoint may carry. */
  public static final int MAX_METADATA_ENTRIES = 32;
  /** Longest metadata key. */
  public static final int MAX_METADATA_KEY_LENGTH = 64;
  /** Longest metadata value. */
  public static final int MAX_METADATA_VALUE_LENGTH = 256;
  private static final int MAX_HOST_LENGTH = 253;
  /** Metadata key of the zone the server runs in, such as {@code eu-west-1a}. */
  public static final String ZONE = "zone";
  /** Metadata key of the machine (Kubernetes node) the server runs on. */
  public static final String NODE = "node";
  /** The metadata key naming the protocol the server speaks at this address. */
  public static final String PROTOCOL = "protocol";
  /** {@value #PROTOCOL} of a server speaking RPCX's own protocol: the default. */
  public static final String RPCX = "rpcx";
  /** {@value #PROTOCOL} of a server speaking gRPC (HTTP/2), called through the exported schema. */
  public static final String GRPC = "grpc";

  private final String host;
  private final int port;
  private final Map<String, String> metadata;

  private ServiceEndpoint(String host, int port, Map<String, String> metadata) {
    this.host = host;
    this.port = port;
    this.metadata = metadata;
  }

  /** An endpoint without metadata. */
  public static ServiceEndpoint of(String host, int port) {
    return of(host, port, Map.of());
  }

  /**
   * An endpoint with metadata.
   *
   * @throws InvalidSettingException naming the value that is not valid
   * @throws IllegalArgumentException if a metadata value holds a control character
   */
  public static ServiceEndpoint of(String host, int port, Map<String, String> metadata) {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(metadata, "metadata");
    checkHost(host);
    if (port < 1 || port > 65535) {
      throw new InvalidSettingException("port", port, "1-65535");
    }
    if (metadata.size() > MAX_METADATA_ENTRIES) {
      throw new InvalidSettingException(
          "metadata", metadata, metadata.size() + " entries", "at most " + MAX_METADATA_ENTRIES);
    }
    TreeMap<String, String> copy = new TreeMap<>();
    for (Map.Entry<String, String> entry : metadata.entrySet()) {
      checkMetadataKey(entry.getKey());
      checkMetadataValue(entry.getKey(), entry.getValue());
      copy.put(entry.getKey(), entry.getValue());
    }
    String protocol = copy.get(PROTOCOL);
    if (protocol != null && !protocol.equals(RPCX) && !protocol.equals(GRPC)) {
      throw new InvalidSettingException(
          "metadata '" + PROTOCOL + "'", protocol, "'" + printable(protocol) + "'",
          RPCX + " or " + GRPC);
    }
    return new ServiceEndpoint(host, port, Collections.unmodifiableMap(copy));
  }

  /**
   * Parses {@code host:port}, or {@code [ipv6]:port}, optionally after a scheme naming the
   * protocol: {@code grpc://host:port} (metadata {@value #PROTOCOL} {@value #GRPC}) or {@code
   * rpcx://host:port} (the same as none).
   *
   * @throws InvalidSettingException if it is not of that form or a value is not valid
   */
  public static ServiceEndpoint parse(String hostAndPort) {
    Objects.requireNonNull(hostAndPort, "hostAndPort");
    String text = hostAndPort.strip();
    String protocol = null;
    int scheme = text.indexOf("://");
    if (scheme >= 0) {
      protocol = text.substring(0, scheme);
      if (!protocol.equals(RPCX) && !protocol.equals(GRPC)) {
        throw new InvalidSettingException(
            "endpoint", hostAndPort, "scheme '" + printable(protocol) + "'",
            "host:port, rpcx://host:port or grpc://host:port");
      }
      text = text.substring(scheme + 3);
    }
    int colon = text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      throw new InvalidSettingException("endpoint", hostAndPort, "host:port");
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.indexOf(':') >= 0) {
      throw new InvalidSettingException(
          "endpoint", hostAndPort, "host:port, with an IPv6 host in brackets");
    }
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new InvalidSettingException(
          "endpoint",
          hostAndPort,
          "'" + hostAndPort + "' has port '" + text.substring(colon + 1) + "'",
          "1-65535");
    }
    return GRPC.equals(protocol) ? of(host, port, Map.of(PROTOCOL, GRPC)) : of(host, port);
  }

  private static void checkHost(String host) {
    if (host.isEmpty() || host.length() > MAX_HOST_LENGTH) {
      throw new InvalidSettingException(
          "host", host, host.length() + " characters", "1-" + MAX_HOST_LENGTH);
    }
    for (int i = 0; i < host.length(); i++) {
      char c = host.charAt(i);
      if (c <= ' ' || c >= 0x7f || c == '/' || c == '[' || c == ']') {
        if (host.contains("://")) {
          throw new InvalidSettingException(
              "host",
              host,
              "'" + printable(host) + "' holds a scheme",
              "a host name or an IP address (a gRPC server is named by the endpoint"
                  + " grpc://host:port, or metadata " + PROTOCOL + "=" + GRPC + ")");
        }
        throw new InvalidSettingException(
            "host",
            host,
            "'" + printable(host) + "' has character " + (int) c + " at " + i,
            "a host name or an IP address");
      }
    }
  }

  private static void checkMetadataKey(String key) {
    Objects.requireNonNull(key, "metadata key");
    if (key.isEmpty() || key.length() > MAX_METADATA_KEY_LENGTH) {
      throw new InvalidSettingException(
          "metadata key", key, key.length() + " characters", "1-" + MAX_METADATA_KEY_LENGTH);
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      boolean valid =
          c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-';
      if (!valid) {
        throw new InvalidSettingException(
            "metadata key", key, "'" + printable(key) + "'", "characters a-z 0-9 . _ -");
      }
    }
  }

  private static void checkMetadataValue(String key, String value) {
    Objects.requireNonNull(value, "metadata value");
    if (value.length() > MAX_METADATA_VALUE_LENGTH) {
      throw new InvalidSettingException(
          "metadata '" + key + "'",
          value,
          value.length() + " characters",
          "at most " + MAX_METADATA_VALUE_LENGTH);
    }
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i))) {
        throw new IllegalArgumentException(
            "metadata '" + key + "' has a control character at " + i);
      }
    }
  }

  /** A string safe to put into a message: control characters escaped, at most 80 characters. */
  private static String printable(String text) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length() && out.length() < 80; i++) {
      char c = text.charAt(i);
      if (c < ' ' || c >= 0x7f) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /** The host name or IP address. */
  public String host() {
    return host;
  }

  /** The TCP port. */
  public int port() {
    return port;
  }

  /** Metadata, sorted by key; unmodifiable. */
  public Map<String, String> metadata() {
    return metadata;
  }

  /** The zone the server runs in ({@link #ZONE} metadata), if the discovery knows it. */
  public Optional<String> zone() {
    return Optional.ofNullable(metadata.get(ZONE));
  }

  /** The machine or Kubernetes node the server runs on ({@link #NODE} metadata), if known. */
  public Optional<String> node() {
    return Optional.ofNullable(metadata.get(NODE));
  }

  /**
   * The protocol the server speaks at this address: {@value #GRPC}, or {@value #RPCX} when the
   * metadata does not say.
   */
  public String protocol() {
    return metadata.getOrDefault(PROTOCOL, RPCX);
  }

  /** {@code host:port}, with an IPv6 host in brackets. */
  public String address() {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof ServiceEndpoint)) {
      return false;
    }
    ServiceEndpoint that = (ServiceEndpoint) other;
    return port == that.port && host.equals(that.host) && metadata.equals(that.metadata);
  }

  @Override
  public int hashCode() {
    return Objects.hash(host, port, metadata);
  }

  @Override
  public String toString() {
    return metadata.isEmpty() ? address() : address() + " " + metadata;
  }
}
