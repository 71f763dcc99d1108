package io.rpcx.benchmarks.rebalance;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;

/** Says which server answered. */
@RPCXClient(name = "whoami")
public interface Whoami {
  String name();

  /** Server {@code name}. */
  @RPCXServer(name = "whoami")
  final class Impl implements Whoami {
    private final String name;

    public Impl(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }
  }
}
