package io.rpcx.client.internal.cluster;

import io.rpcx.client.LoadBalancing;
import io.rpcx.client.internal.call.CallChannel;
import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.core.InternalErrorException;
import io.rpcx.core.RpcxException;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.core.discovery.ServiceEndpoint;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The servers of one service and the balancer that picks one for each call: what a client method
 * sends its calls to. Its list comes from a {@link ServiceDiscovery} (a static list, or a registry
 * it watches) and changes while calls go on; each change builds a new immutable {@link Picker}, so
 * the per-call path reads one volatile field and never locks.
 *
 * <p>An empty list does not replace a non-empty one: the servers known are kept (calls to any that
 * really stopped fail as unavailable) until the discovery lists servers again.
 *
 * <p>Several entries for one address (a server restarted before its old registration expired) are
 * one member. An address that reappears with an entry not seen before was restarted or
 * re-registered: its failures are forgotten and the next call connects at once. Thread-safe.
 */
public final class ServiceCluster implements CallChannel, ServiceDiscovery.Listener {
  private static final Logger logger = LoggerFactory.getLogger(ServiceCluster.class);

  private final String service;
  private final String source;
  private final LoadBalancing strategy;
  private final Members members;
  /** The client's zone, whose servers the picker prefers, or {@code null}. */
  private final String zone;
  private final AtomicInteger roundRobin = new AtomicInteger();
  private volatile Picker picker;
  private volatile String description;
  /** Current members by address, and the entries seen for each; guarded by {@code this}. */
  private final Map<String, Member> current = new LinkedHashMap<>();
  private Map<String, Set<ServiceEndpoint>> entries = new HashMap<>();
  /** The zone of each current member, as its first entry says; guarded by {@code this}. */
  private final Map<Member, String> zones = new HashMap<>();
  private volatile ServiceDiscovery.Subscription subscription;
  /** Why the discovery cannot list servers now, or {@code null}; for the calls it fails. */
  private volatile String problem;
  private boolean closed;

  public ServiceCluster(String service, String source, LoadBalancing strategy, Members members) {
    this(service, source, strategy, members, null);
  }

  /** A cluster whose picker prefers the servers of {@code zone} (may be {@code null}). */
  public ServiceCluster(
      String service, String source, LoadBalancing strategy, Members members, String zone) {
    this.service = service;
    this.source = source;
    this.strategy = strategy;
    this.members = members;
    this.zone = zone;
    this.description = describe(List.of());
  }

  /** Subscribes to {@code discovery}; returns after its first list arrived (if it is synchronous). */
  public ServiceCluster subscribe(ServiceDiscovery discovery) {
    ServiceDiscovery.Subscription created = discovery.subscribe(service, this);
    boolean closeNow;
    synchronized (this) {
      closeNow = closed;
      subscription = created;
    }
    if (closeNow) {
      created.close();
    }
    return this;
  }

  @Override
  public void send(PendingCall call) {
    Picker current = picker;
    if (current == null) {
      String why = problem;
      call.fail(
          UnavailableException.notProcessed(
              call.model().displayName() + " was not sent: " + source + " lists no server for"
                  + " service '" + service + "'" + (why == null ? "" : ": " + why)));
      return;
    }
    Member member = start(current, call);
    try {
      call.start(member.address());
      member.channel().send(call);
    } catch (RpcxException e) {
      call.fail(e);
    } catch (RuntimeException | Error e) {
      // Failed, so that the member's count and its probe are let go of.
      call.fail(
          new InternalErrorException(
              "cannot send " + call.model().displayName() + " to " + member.address() + ": " + e,
              e));
      if (e instanceof Error) {
        throw (Error) e;
      }
    }
  }

  /**
   * Picks the member for {@code call} and starts the call there. Callers that pick an ejected
   * member's free probe at once race for it: the losers pick again. When the picker has no member
   * that may take the call, the call goes to the one it gives anyway, to fail fast.
   */
  private static Member start(Picker picker, PendingCall call) {
    long now = System.nanoTime();
    Member member = picker.pick(call, now);
    for (int picks = 1; !member.tryStart(call, now); picks++) {
      now = System.nanoTime();
      member = picker.pick(call, now);
      // Pickers prefer members that may take the call: one that may not means none may.
      if (!member.isEligible(now) || picks > picker.members.length) {
        member.start(call, now);
        break;
      }
    }
    return member;
  }

  @Override
  public String address() {
    return description;
  }

  @Override
  public boolean hasUsableServer() {
    Picker current = picker;
    if (current == null) {
      return false;
    }
    long now = System.nanoTime();
    for (Member member : current.members) {
      if (member.isEligible(now)) {
        return true;
      }
    }
    return false;
  }

  /** The one server's address, or how many servers from where. */
  private String describe(Collection<Member> servers) {
    if (servers.size() == 1) {
      return servers.iterator().next().address();
    }
    return servers.size() + " servers of service '" + service + "' from " + source;
  }

  @Override
  public void onProblem(String problem) {
    this.problem = problem;
  }

  /** The connection to {@code member} was lost: the discovery may know better by now. */
  void serverDisconnected(Member member) {
    ServiceDiscovery.Subscription current = subscription;
    if (current != null) {
      logger.debug("Lost the connection to {}: asking {} to look again", member, source);
      current.refresh();
    }
  }

  @Override
  public void onEndpoints(List<ServiceEndpoint> endpoints) {
    List<Member> released = new ArrayList<>();
    synchronized (this) {
      if (closed) {
        return;
      }
      problem = null;
      if (endpoints.isEmpty() && !current.isEmpty()) {
        // A registry that lost its data (ZooKeeper sessions expired during an outage, say) would
        // take every healthy server away at once. Servers that really stopped fail by themselves.
        logger.warn(
            "{} lists no server for service '{}' any more; keeping {} until it lists some",
            source,
            service,
            current.keySet());
        return;
      }
      Map<String, Set<ServiceEndpoint>> next = new LinkedHashMap<>();
      Map<String, ServiceEndpoint> firstByAddress = new HashMap<>();
      for (ServiceEndpoint endpoint : endpoints) {
        String key = Members.key(endpoint);
        next.computeIfAbsent(key, ignored -> new HashSet<>()).add(endpoint);
        firstByAddress.putIfAbsent(key, endpoint);
      }
      boolean changed = false;
      for (Map.Entry<String, Set<ServiceEndpoint>> entry : next.entrySet()) {
        String address = entry.getKey();
        Member member = current.get(address);
        ServiceEndpoint first = firstByAddress.get(address);
        if (member == null) {
          member = members.acquire(address, first, this);
          current.put(address, member);
          changed = true;
        } else if (!entries.getOrDefault(address, Set.of()).containsAll(entry.getValue())) {
          logger.info("{} was announced again for service '{}'", address, service);
          member.announcedAgain();
        }
        String memberZone = first.zone().orElse(null);
        if (!java.util.Objects.equals(zones.put(member, memberZone), memberZone)) {
          changed = true; // moved zones: the picker's preference changes
        }
      }
      for (var iterator = current.entrySet().iterator(); iterator.hasNext(); ) {
        Map.Entry<String, Member> entry = iterator.next();
        if (!next.containsKey(entry.getKey())) {
          released.add(entry.getValue());
          zones.remove(entry.getValue());
          iterator.remove();
          changed = true;
        }
      }
      entries = next;
      if (changed) {
        Member[] array = current.values().toArray(new Member[0]);
        picker = array.length == 0 ? null : newPicker(array);
        description = describe(current.values());
        logger.info("Service '{}' now has servers {} (from {})", service, current.keySet(), source);
      }
    }
    for (Member member : released) {
      members.release(member, this);
    }
  }

  /**
   * The picker of {@code array}: with a zone, one that prefers the members of that zone, unless
   * the strategy is consistent hashing (keys keep their server) or no member, or every member, is
   * in the zone.
   */
  private Picker newPicker(Member[] array) {
    if (zone == null || strategy == LoadBalancing.CONSISTENT_HASHING) {
      return newPicker(strategy, array);
    }
    Member[] local =
        java.util.Arrays.stream(array).filter(m -> zone.equals(zones.get(m))).toArray(Member[]::new);
    if (local.length == 0 || local.length == array.length) {
      return newPicker(strategy, array);
    }
    return new ZonePreferringPicker(
        newPicker(strategy, local),
        newPicker(strategy, array),
        strategy == LoadBalancing.LEAST_IN_FLIGHT);
  }

  private Picker newPicker(LoadBalancing strategy, Member[] array) {
    switch (strategy) {
      case ROUND_ROBIN:
        return new RoundRobinPicker(array, roundRobin);
      case CONSISTENT_HASHING:
        return new RingHashPicker(array);
      case LEAST_IN_FLIGHT:
      default:
        return new LeastInFlightPicker(array);
    }
  }

  /** The members now, to report their state. */
  public synchronized List<Member> members() {
    return new ArrayList<>(current.values());
  }

  /** Stops watching and lets go of every member. */
  public void close() {
    ServiceDiscovery.Subscription toClose;
    List<Member> released;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      toClose = subscription;
      released = new ArrayList<>(current.values());
      current.clear();
      zones.clear();
      picker = null;
    }
    if (toClose != null) {
      toClose.close();
    }
    for (Member member : released) {
      members.release(member, this);
    }
  }
}
