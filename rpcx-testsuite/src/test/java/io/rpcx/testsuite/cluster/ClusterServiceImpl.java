package io.rpcx.testsuite.cluster;

import io.rpcx.annotation.RPCXServer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/** One server of the cluster, named; counts how often each recorded call ran here. */
@RPCXServer(name = "cluster")
public final class ClusterServiceImpl implements ClusterService {
  private final String name;
  private final Map<String, Integer> executions;
  private volatile long extraDelayNanos;

  public ClusterServiceImpl(String name, Map<String, Integer> executions) {
    this.name = name;
    this.executions = executions;
  }

  public ClusterServiceImpl(String name) {
    this(name, new ConcurrentHashMap<>());
  }

  /** Makes every call take {@code millis} longer (a slow server). */
  public void slowDown(int millis) {
    extraDelayNanos = millis * 1_000_000L;
  }

  private void work(int millis) {
    long nanos = millis * 1_000_000L + extraDelayNanos;
    long end = System.nanoTime() + nanos;
    while (nanos > 0) {
      LockSupport.parkNanos(nanos);
      nanos = end - System.nanoTime();
    }
  }

  @Override
  public String whoAmI(int millis) {
    work(millis);
    return name;
  }

  @Override
  public String record(String callId, int millis) {
    executions.merge(callId, 1, Integer::sum);
    work(millis);
    return name;
  }

  @Override
  public String owner(String key) {
    work(0);
    return name;
  }
}
