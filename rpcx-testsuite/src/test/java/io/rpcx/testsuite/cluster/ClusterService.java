package io.rpcx.testsuite.cluster;

import io.rpcx.annotation.Idempotent;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RoutingKey;

/** A service run by several servers: each call says which server answered. */
@RPCXClient(name = "cluster")
public interface ClusterService {

  /** The answering server's name, after {@code millis} of work. */
  @Idempotent
  String whoAmI(int millis);

  /** The answering server's name; counts the executions of {@code callId}. Not idempotent. */
  String record(String callId, int millis);

  /** The answering server's name, for a key balanced by consistent hashing. */
  String owner(@RoutingKey String key);
}
