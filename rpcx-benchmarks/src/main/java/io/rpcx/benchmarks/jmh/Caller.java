package io.rpcx.benchmarks.jmh;

import io.rpcx.benchmarks.api.Workload;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One benchmark thread's {@link Workload.Call}, made by the trial's client ({@link
 * io.rpcx.benchmarks.api.BenchmarkClient#newCall}): payload references in the form that client's
 * users hold and, for CRUD, the thread's position in the create-update-find-remove cycle.
 */
@State(Scope.Thread)
public class Caller {
  Workload.Call call;

  /** Builds this thread's call for the trial's workload. */
  @Setup(Level.Trial)
  public void prepare(Target target) {
    call = target.client.newCall(Workload.byId(target.workload));
  }
}
