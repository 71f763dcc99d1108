package io.rpcx.client.internal.cluster;

import io.rpcx.client.internal.call.ServerLink;
import io.rpcx.client.internal.config.Ejection;
import io.rpcx.core.discovery.ServiceEndpoint;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * The servers a client knows, one {@link Member} per address (and protocol: a server called both
 * over RPCX and over gRPC is two members) shared by every service it serves, so that a server has
 * one connection and one health record however many services it publishes. A member lives while
 * some cluster lists it; when the last one drops it, its channel retires. Thread safe.
 */
public final class Members {
  private final Function<ServiceEndpoint, ServerLink> channels;
  private final Ejection ejection;
  private final ScheduledExecutorService scheduler;
  private final Map<String, Member> byAddress = new HashMap<>();
  private final LongAdder ejections = new LongAdder();

  /**
   * {@code channels} opens the channel to an endpoint; {@code scheduler} runs the probes of
   * ejected servers.
   */
  public Members(
      Function<ServiceEndpoint, ServerLink> channels,
      Ejection ejection,
      ScheduledExecutorService scheduler) {
    this.channels = channels;
    this.ejection = ejection;
    this.scheduler = scheduler;
  }

  /**
   * What tells members apart: {@code host:port}, prefixed {@code grpc://} for a gRPC server's (as
   * its channel names itself).
   */
  static String key(ServiceEndpoint endpoint) {
    return ServiceEndpoint.GRPC.equals(endpoint.protocol())
        ? "grpc://" + endpoint.address()
        : endpoint.address();
  }

  /** The member of {@code endpoint}, whose {@link #key} is {@code key}, created if no cluster lists it yet. */
  synchronized Member acquire(String key, ServiceEndpoint endpoint) {
    Member member =
        byAddress.computeIfAbsent(
            key,
            ignored -> {
              ServerLink link = channels.apply(endpoint);
              // Named as the link names itself: host:port, or an in-process server's name.
              return new Member(link.address(), link, ejection, scheduler, ejections);
            });
    member.references++;
    return member;
  }

  /** A cluster no longer lists {@code member}; the last one to let go retires its channel. */
  synchronized void release(Member member) {
    if (--member.references == 0 && byAddress.values().remove(member)) {
      member.retire();
      member.channel().retire();
    }
  }

  /** Times a member was taken out of rotation, so far. */
  public long ejections() {
    return ejections.sum();
  }
}
