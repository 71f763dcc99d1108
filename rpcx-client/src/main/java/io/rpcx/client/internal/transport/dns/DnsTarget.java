package io.rpcx.client.internal.transport.dns;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * What to look up in DNS for a service: the A and AAAA records of a name, served on the port the
 * target gives ({@code dns:///orders.shop.svc.cluster.local:9000}), or the SRV records of a name,
 * which give a host and a port each ({@code dns:///_rpcx._tcp.orders.shop.svc.cluster.local});
 * optionally asked of a name server of its own ({@code dns://10.0.0.10:53/orders.internal:9000}).
 * Immutable.
 *
 * @param nameServer the name server the target names, or {@code null} for the discovery's
 * @param port the port of every server, or 0 to look up SRV records
 */
public record DnsTarget(String name, int port, InetSocketAddress nameServer) {

  /** Whether the target asks for SRV records (it has no port). */
  public boolean isSrv() {
    return port == 0;
  }

  /**
   * Parses a {@code dns:} target.
   *
   * @throws IllegalArgumentException naming the target and the forms accepted
   */
  public static DnsTarget parse(String target) {
    Objects.requireNonNull(target, "target");
    String text = target.strip();
    if (!text.startsWith("dns://")) {
      throw invalid(target);
    }
    String rest = text.substring("dns://".length());
    int slash = rest.indexOf('/');
    if (slash < 0) {
      throw invalid(target);
    }
    InetSocketAddress nameServer = null;
    if (slash > 0) {
      String authority = rest.substring(0, slash);
      int colon = authority.lastIndexOf(':');
      String host = colon < 0 ? authority : authority.substring(0, colon);
      int port = colon < 0 ? 53 : port(authority.substring(colon + 1), target);
      if (host.startsWith("[") && host.endsWith("]")) {
        host = host.substring(1, host.length() - 1);
      }
      nameServer = InetSocketAddress.createUnresolved(host, port);
    }
    String path = rest.substring(slash + 1);
    int colon = path.lastIndexOf(':');
    String name = colon < 0 ? path : path.substring(0, colon);
    int port = colon < 0 ? 0 : port(path.substring(colon + 1), target);
    if (name.endsWith(".")) {
      name = name.substring(0, name.length() - 1); // fully qualified: the same name
    }
    if (!isName(name)) {
      throw invalid(target);
    }
    return new DnsTarget(name, port, nameServer);
  }

  private static int port(String text, String target) {
    try {
      int port = Integer.parseInt(text);
      if (port >= 1 && port <= 65535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException(
        "target: '" + target + "' has port '" + text + "' (expected: 1-65535)");
  }

  /** Labels of letters, digits, '-' and '_' (SRV names), at most 253 characters. */
  private static boolean isName(String name) {
    if (name.isEmpty() || name.length() > 253) {
      return false;
    }
    for (String label : name.split("\\.", -1)) {
      if (label.isEmpty() || label.length() > 63) {
        return false;
      }
      for (int i = 0; i < label.length(); i++) {
        char c = label.charAt(i);
        boolean valid =
            c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-'
                || c == '_';
        if (!valid) {
          return false;
        }
      }
    }
    return true;
  }

  private static IllegalArgumentException invalid(String target) {
    return new IllegalArgumentException(
        "target: '" + target + "' (expected: dns:///name:port for A/AAAA records, dns:///name"
            + " for SRV records, or either with a name server, dns://host:port/name:port)");
  }

  /** What is looked up, for messages: {@code A/AAAA records of orders.internal:9000}. */
  public String describe() {
    String what = isSrv() ? "SRV records of " + name : "A/AAAA records of " + name + ":" + port;
    return nameServer == null
        ? what
        : what + " at " + nameServer.getHostString() + ":" + nameServer.getPort();
  }

  @Override
  public String toString() {
    return "dns://" + (nameServer == null ? "" : nameServer.getHostString() + ":" + nameServer.getPort())
        + "/" + name + (isSrv() ? "" : ":" + port);
  }
}
