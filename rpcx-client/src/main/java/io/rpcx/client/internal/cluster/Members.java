package io.rpcx.client.internal.cluster;

import io.rpcx.client.internal.call.ServerLink;
import io.rpcx.client.internal.config.Ejection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiFunction;

/**
 * The servers a client knows, one {@link Member} per address shared by every service it serves, so
 * that a server has one connection and one health record however many services it publishes. A
 * member lives while some cluster lists it; when the last one drops it, its channel retires. Thread
 * safe.
 */
public final class Members {
  private final BiFunction<String, Integer, ServerLink> channels;
  private final Ejection ejection;
  private final ScheduledExecutorService scheduler;
  private final Map<String, Member> byAddress = new HashMap<>();
  private final LongAdder ejections = new LongAdder();

  /**
   * {@code channels} opens the channel to a host and port; {@code scheduler} runs the probes of
   * ejected servers.
   */
  public Members(
      BiFunction<String, Integer, ServerLink> channels,
      Ejection ejection,
      ScheduledExecutorService scheduler) {
    this.channels = channels;
    this.ejection = ejection;
    this.scheduler = scheduler;
  }

  /** The member at {@code host:port}, created if no cluster lists it yet. */
  synchronized Member acquire(String address, String host, int port) {
    Member member =
        byAddress.computeIfAbsent(
            address,
            key -> {
              ServerLink link = channels.apply(host, port);
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
