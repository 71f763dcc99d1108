package io.rpcx.client.internal.transport.dns;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What a DNS discovery runs on: one event loop (a daemon thread named {@code rpcx-dns}) and one
 * resolver per set of name servers, shared by its watches. Thread-safe; {@link #close()} closes
 * the resolvers and stops the thread.
 */
public final class DnsResolvers implements AutoCloseable {
  private final EventLoopGroup group =
      new MultiThreadIoEventLoopGroup(
          1, new DefaultThreadFactory("rpcx-dns", true), NioIoHandler.newFactory());
  private final EventLoop loop = group.next();
  private final List<InetSocketAddress> nameServers;
  private final long queryTimeoutMillis;
  private final long maxIntervalNanos;
  private final long minIntervalNanos;
  private final Map<List<InetSocketAddress>, DnsLookup> lookups = new HashMap<>();

  /**
   * @param nameServers the name servers of targets that name none; none: the system's
   */
  public DnsResolvers(
      List<InetSocketAddress> nameServers,
      long queryTimeoutMillis,
      long maxIntervalMillis,
      long minIntervalMillis) {
    this.nameServers = List.copyOf(nameServers);
    this.queryTimeoutMillis = queryTimeoutMillis;
    this.maxIntervalNanos = TimeUnit.MILLISECONDS.toNanos(maxIntervalMillis);
    this.minIntervalNanos = TimeUnit.MILLISECONDS.toNanos(minIntervalMillis);
  }

  /** A new watch of {@code target}, not started. */
  public synchronized DnsWatch watch(DnsTarget target) {
    List<InetSocketAddress> servers =
        target.nameServer() != null ? List.of(target.nameServer()) : nameServers;
    DnsLookup lookup =
        lookups.computeIfAbsent(servers, key -> new DnsLookup(loop, key, queryTimeoutMillis));
    return new DnsWatch(target, lookup, loop, maxIntervalNanos, minIntervalNanos);
  }

  /** Which name servers targets without their own are asked, for messages. */
  public String describeNameServers() {
    if (nameServers.isEmpty()) {
      return "the system's name servers";
    }
    List<String> names = new ArrayList<>();
    for (InetSocketAddress server : nameServers) {
      names.add(server.getHostString() + ":" + server.getPort());
    }
    return String.join(", ", names);
  }

  @Override
  public void close() {
    List<DnsLookup> open;
    synchronized (this) {
      open = List.copyOf(lookups.values());
      lookups.clear();
    }
    // On the loop, after the watches' own close tasks queued before.
    loop.execute(() -> open.forEach(DnsLookup::close));
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
