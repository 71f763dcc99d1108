package io.rpcx.server.internal.transport;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The connections a server accepted that have not sent a valid preface yet (their TLS handshake
 * included), bounded in total and per source address. They hold no place among the server's
 * {@code maxConnections}, which counts only connections that speak RPCX: sockets that never speak
 * cannot lock real clients out, and one address that opens many cannot take every handshaking
 * place either. Thread-safe.
 */
final class HandshakingConnections {
  private final int max;
  private final int maxPerAddress;
  private final AtomicInteger total = new AtomicInteger();
  private final ConcurrentHashMap<Object, Integer> byAddress = new ConcurrentHashMap<>();

  HandshakingConnections(int max, int maxPerAddress) {
    this.max = max;
    this.maxPerAddress = maxPerAddress;
  }

  /**
   * The key connections from {@code remote} are counted under: its IP address (whatever the
   * port), or the address itself for other transports (in-process).
   */
  static Object source(SocketAddress remote) {
    return remote instanceof InetSocketAddress inet && inet.getAddress() != null
        ? inet.getAddress()
        : String.valueOf(remote);
  }

  /**
   * Takes a place for a connection from {@code source}; returns {@code null} if it got one, else
   * why not (for the log line refusing it).
   */
  String admit(Object source) {
    boolean[] admitted = new boolean[1];
    byAddress.compute(
        source,
        (key, count) -> {
          int current = count == null ? 0 : count;
          if (current >= maxPerAddress) {
            return count;
          }
          admitted[0] = true;
          return current + 1;
        });
    if (!admitted[0]) {
      return maxPerAddress + " connections from that address are still in their handshake"
          + " (limit maxHandshakingConnectionsPerAddress " + maxPerAddress + ")";
    }
    if (total.incrementAndGet() > max) {
      total.decrementAndGet();
      release(source, false);
      return max + " connections are still in their handshake (limit maxHandshakingConnections "
          + max + ")";
    }
    return null;
  }

  /** The connection from {@code source} that held a place sent its preface, or closed. */
  void release(Object source) {
    release(source, true);
  }

  private void release(Object source, boolean counted) {
    byAddress.computeIfPresent(source, (key, count) -> count == 1 ? null : count - 1);
    if (counted) {
      total.decrementAndGet();
    }
  }

  /** Connections holding a place now. */
  int count() {
    return total.get();
  }
}
