package io.rpcx.kubernetes;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import java.util.concurrent.locks.LockSupport;

/** A service that says which server answered. */
@RPCXClient(name = "whoami")
public interface Whoami {
  String name();

  /** Answers after {@code millis}: a call that is in flight for a while. */
  String slow(long millis);

  /** The server named {@code name}. */
  @RPCXServer(name = "whoami")
  final class Impl implements Whoami {
    private final String name;

    Impl(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public String slow(long millis) {
      LockSupport.parkNanos(millis * 1_000_000L);
      return name;
    }
  }
}
