package io.rpcx.client.internal.cluster;

import io.rpcx.client.internal.call.ServerLink;
import io.rpcx.client.internal.config.Ejection;
import io.rpcx.core.discovery.ServiceEndpoint;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.LongAdder;

/**
 * The servers a client knows, one {@link Member} per address (and protocol: a server called both
 * over RPCX and over gRPC is two members) shared by every service it serves, so that a server has
 * one connection and one health record however many services it publishes. A member lives while
 * some cluster lists it; when the last one drops it, its channel retires. Thread safe.
 */
public final class Members {

  /** Opens the channel to a server. */
  @FunctionalInterface
  public interface Links {
    /**
     * A channel to {@code endpoint}, in the protocol it names; {@code disconnected} runs, holding
     * no lock, whenever a connection in use is lost or an attempt to connect fails.
     */
    ServerLink open(ServiceEndpoint endpoint, Runnable disconnected);
  }

  private final Links channels;
  private final Ejection ejection;
  private final ScheduledExecutorService scheduler;
  private final Map<String, Member> byAddress = new HashMap<>();
  private final LongAdder ejections = new LongAdder();

  /**
   * {@code channels} opens the channel to an endpoint; {@code scheduler} runs the probes of
   * ejected servers.
   */
  public Members(
      Links channels,
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

  /**
   * The member of {@code endpoint}, whose {@link #key} is {@code key}, created if no cluster lists
   * it yet; {@code cluster} hears when its connection is lost, until it releases the member.
   */
  synchronized Member acquire(String key, ServiceEndpoint endpoint, ServiceCluster cluster) {
    Member member =
        byAddress.computeIfAbsent(
            key,
            ignored -> {
              Member[] created = new Member[1];
              ServerLink link = channels.open(endpoint, () -> created[0].disconnected());
              // Named as the link names itself: host:port, or an in-process server's name.
              created[0] = new Member(link.address(), link, ejection, scheduler, ejections);
              return created[0];
            });
    member.references++;
    member.clusters.add(cluster);
    return member;
  }

  /** {@code cluster} no longer lists {@code member}; the last one to let go retires its channel. */
  synchronized void release(Member member, ServiceCluster cluster) {
    member.clusters.remove(cluster);
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
