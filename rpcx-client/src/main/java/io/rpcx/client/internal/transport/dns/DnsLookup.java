package io.rpcx.client.internal.transport.dns;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.dns.DefaultDnsQuestion;
import io.netty.handler.codec.dns.DefaultDnsRecordDecoder;
import io.netty.handler.codec.dns.DnsRawRecord;
import io.netty.handler.codec.dns.DnsRecord;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.DnsResponseCode;
import io.netty.resolver.dns.DnsErrorCauseException;
import io.netty.resolver.dns.DnsNameResolver;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.resolver.dns.DnsServerAddressStreamProvider;
import io.netty.resolver.dns.DnsServerAddressStreamProviders;
import io.netty.resolver.dns.NoopDnsCache;
import io.netty.resolver.dns.NoopDnsCnameCache;
import io.netty.resolver.dns.SequentialDnsServerAddressStreamProvider;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.rpcx.core.discovery.ServiceEndpoint;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Asks DNS for the servers of a {@link DnsTarget}, with Netty's resolver and no cache of its own
 * (every lookup asks the name server, which applies the records' TTL itself): the A and AAAA
 * records of a name, or its SRV records and then the A and AAAA records of each SRV target. Every
 * answer is untrusted input: a record that cannot be read is skipped. Runs on one event loop;
 * {@link #close()} closes the resolver.
 */
public final class DnsLookup implements AutoCloseable {
  /** Most servers taken from one answer. */
  static final int MAX_ENDPOINTS = 10_000;

  /** What one lookup found: the servers (sorted) and the shortest TTL of the records used. */
  public record Answer(List<ServiceEndpoint> endpoints, long ttlSeconds) {}

  private final DnsNameResolver resolver;
  private final String nameServers;

  /**
   * @param nameServers the name servers to ask, in turn, or none for the system's ({@code
   *     /etc/resolv.conf})
   */
  DnsLookup(EventLoop loop, List<InetSocketAddress> nameServers, long queryTimeoutMillis) {
    DnsServerAddressStreamProvider servers =
        nameServers.isEmpty()
            ? DnsServerAddressStreamProviders.platformDefault()
            : new SequentialDnsServerAddressStreamProvider(
                nameServers.stream().map(DnsLookup::resolved).toArray(InetSocketAddress[]::new));
    this.nameServers =
        nameServers.isEmpty()
            ? "the system's name servers"
            : String.join(
                ", ",
                nameServers.stream().map(s -> s.getHostString() + ":" + s.getPort()).toList());
    this.resolver =
        new DnsNameResolverBuilder(loop)
            .datagramChannelFactory(NioDatagramChannel::new)
            .socketChannelFactory(NioSocketChannel::new) // answers too long for UDP
            .nameServerProvider(servers)
            .resolveCache(NoopDnsCache.INSTANCE)
            .cnameCache(NoopDnsCnameCache.INSTANCE)
            .queryTimeoutMillis(queryTimeoutMillis)
            .recursionDesired(true)
            .build();
  }

  private static InetSocketAddress resolved(InetSocketAddress address) {
    return address.isUnresolved()
        ? new InetSocketAddress(address.getHostString(), address.getPort())
        : address;
  }

  /** Which name servers are asked, for messages. */
  public String nameServers() {
    return nameServers;
  }

  /**
   * Looks {@code target} up. Completes on the event loop, exceptionally with an {@link
   * UnknownHostException} naming the problem when the name server cannot be asked or has no
   * record for it.
   */
  public CompletableFuture<Answer> lookup(DnsTarget target) {
    if (target.isSrv()) {
      return query(target.name(), DnsRecordType.SRV).thenCompose(this::resolveSrv);
    }
    return addresses(target.name())
        .thenApply(
            found -> {
              List<ServiceEndpoint> endpoints = new ArrayList<>();
              for (InetAddress address : found.addresses.keySet()) {
                endpoints.add(ServiceEndpoint.of(address.getHostAddress(), target.port()));
              }
              return new Answer(List.copyOf(endpoints), found.ttlSeconds);
            });
  }

  /** The addresses of {@code name}, sorted, with the shortest TTL. */
  private record Addresses(TreeMap<InetAddress, Boolean> addresses, long ttlSeconds) {}

  /** A and AAAA records of {@code name}; fails if both lookups fail, or neither has a record. */
  private CompletableFuture<Addresses> addresses(String name) {
    CompletableFuture<List<Record>> a = query(name, DnsRecordType.A);
    CompletableFuture<List<Record>> aaaa = query(name, DnsRecordType.AAAA);
    return a.handle((found, failure) -> new Outcome(found, failure))
        .thenCombine(
            aaaa.handle((found, failure) -> new Outcome(found, failure)),
            (v4, v6) -> {
              if (v4.failure != null && v6.failure != null) {
                throw new java.util.concurrent.CompletionException(v4.failure);
              }
              TreeMap<InetAddress, Boolean> addresses =
                  new TreeMap<>(java.util.Comparator.comparing(InetAddress::getHostAddress));
              long ttl = Long.MAX_VALUE;
              for (Outcome outcome : List.of(v4, v6)) {
                if (outcome.records == null) {
                  continue;
                }
                for (Record record : outcome.records) {
                  if (record.address != null && addresses.size() < MAX_ENDPOINTS) {
                    addresses.put(record.address, Boolean.TRUE);
                    ttl = Math.min(ttl, record.ttlSeconds);
                  }
                }
              }
              if (addresses.isEmpty()) {
                // One lookup answered with no record, the other failed: the failure says more.
                Throwable failed = v4.failure != null ? v4.failure : v6.failure;
                throw new java.util.concurrent.CompletionException(
                    failed != null
                        ? failed
                        : new UnknownHostException(
                            "DNS has no A or AAAA record for " + name + " (asked " + nameServers
                                + ")"));
              }
              return new Addresses(addresses, ttl);
            });
  }

  private record Outcome(List<Record> records, Throwable failure) {}

  /** One record read: an address (A, AAAA) or an SRV target, with its TTL. */
  private record Record(InetAddress address, String target, int port, int priority, long ttlSeconds) {}

  private CompletableFuture<Answer> resolveSrv(List<Record> records) {
    if (records.isEmpty()) {
      return CompletableFuture.failedFuture(new UnknownHostException("DNS has no SRV record"));
    }
    // The lowest priority value is used first (RFC 2782); weights are not used.
    int priority = records.stream().mapToInt(Record::priority).min().getAsInt();
    List<Record> used = records.stream().filter(r -> r.priority == priority).toList();
    List<CompletableFuture<List<ServiceEndpoint>>> targets = new ArrayList<>();
    long[] ttl = {used.stream().mapToLong(Record::ttlSeconds).min().getAsLong()};
    for (Record srv : used) {
      targets.add(
          addresses(srv.target)
              .thenApply(
                  found -> {
                    synchronized (ttl) {
                      ttl[0] = Math.min(ttl[0], found.ttlSeconds);
                    }
                    List<ServiceEndpoint> endpoints = new ArrayList<>();
                    for (InetAddress address : found.addresses.keySet()) {
                      endpoints.add(ServiceEndpoint.of(address.getHostAddress(), srv.port));
                    }
                    return endpoints;
                  })
              .exceptionally(failure -> List.of())); // a target without address: skipped
    }
    return CompletableFuture.allOf(targets.toArray(new CompletableFuture<?>[0]))
        .thenApply(
            ignored -> {
              TreeMap<String, ServiceEndpoint> endpoints = new TreeMap<>();
              for (CompletableFuture<List<ServiceEndpoint>> target : targets) {
                for (ServiceEndpoint endpoint : target.join()) {
                  if (endpoints.size() < MAX_ENDPOINTS) {
                    endpoints.put(endpoint.address(), endpoint);
                  }
                }
              }
              if (endpoints.isEmpty()) {
                throw new java.util.concurrent.CompletionException(
                    new UnknownHostException(
                        "none of the SRV targets " + used.stream().map(Record::target).toList()
                            + " has an A or AAAA record"));
              }
              return new Answer(List.copyOf(endpoints.values()), ttl[0]);
            });
  }

  /** The records of one type for {@code name}, read and released. */
  private CompletableFuture<List<Record>> query(String name, DnsRecordType type) {
    CompletableFuture<List<Record>> result = new CompletableFuture<>();
    Future<List<DnsRecord>> answer = resolver.resolveAll(new DefaultDnsQuestion(name, type));
    answer.addListener(
        done -> {
          if (!done.isSuccess()) {
            if (isNoSuchName(done.cause())) {
              // NXDOMAIN: the name server answered that there is no such name: no record.
              noRecord(result, name, type);
            } else {
              result.completeExceptionally(failure(name, type, done.cause()));
            }
            return;
          }
          @SuppressWarnings("unchecked")
          List<DnsRecord> records = (List<DnsRecord>) done.getNow();
          List<Record> read = new ArrayList<>();
          try {
            for (DnsRecord record : records) {
              Record parsed = read(record, type);
              if (parsed != null) {
                read.add(parsed);
              }
            }
          } finally {
            for (DnsRecord record : records) {
              ReferenceCountUtil.release(record);
            }
          }
          if (read.isEmpty()) {
            noRecord(result, name, type);
          } else {
            result.complete(read);
          }
        });
    return result;
  }

  /** An answer with no record: fine for one of A and AAAA, a failure for SRV. */
  private void noRecord(CompletableFuture<List<Record>> result, String name, DnsRecordType type) {
    if (type == DnsRecordType.SRV) {
      result.completeExceptionally(
          new UnknownHostException(
              "DNS has no SRV record for " + name + " (asked " + nameServers + ")"));
    } else {
      result.complete(List.of());
    }
  }

  private static boolean isNoSuchName(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof DnsErrorCauseException error
          && DnsResponseCode.NXDOMAIN.equals(error.getCode())) {
        return true;
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return false;
  }

  private UnknownHostException failure(String name, DnsRecordType type, Throwable cause) {
    UnknownHostException failure =
        new UnknownHostException(
            "DNS lookup of " + name + " (" + type.name() + ") at " + nameServers + " failed: "
                + (cause.getMessage() != null ? cause.getMessage() : cause.toString()));
    failure.initCause(cause);
    return failure;
  }

  /** Reads one answer record of the type asked, or {@code null} (another type, or malformed). */
  private static Record read(DnsRecord record, DnsRecordType asked) {
    if (!(record instanceof DnsRawRecord raw) || record.type() != asked) {
      return null; // CNAMEs on the way, records of other types
    }
    ByteBuf content = raw.content();
    long ttl = Math.max(0, record.timeToLive());
    try {
      if (asked == DnsRecordType.A || asked == DnsRecordType.AAAA) {
        int length = asked == DnsRecordType.A ? 4 : 16;
        if (content.readableBytes() != length) {
          return null;
        }
        byte[] bytes = new byte[length];
        content.getBytes(content.readerIndex(), bytes);
        return new Record(InetAddress.getByAddress(bytes), null, 0, 0, ttl);
      }
      // SRV: priority, weight, port, target (a name that may point into the whole message).
      ByteBuf data = content.duplicate();
      if (data.readableBytes() < 7) {
        return null;
      }
      int priority = data.readUnsignedShort();
      data.readUnsignedShort(); // weight
      int port = data.readUnsignedShort();
      String target = DefaultDnsRecordDecoder.decodeName(data);
      if (target.endsWith(".")) {
        target = target.substring(0, target.length() - 1);
      }
      if (port == 0 || target.isEmpty()) {
        return null; // "." as target: the service is decidedly not available (RFC 2782)
      }
      return new Record(null, target, port, priority, ttl);
    } catch (UnknownHostException | RuntimeException e) {
      return null;
    }
  }

  @Override
  public void close() {
    resolver.close();
  }

}
