package io.rpcx.testsuite.cluster;

import io.rpcx.annotation.Idempotent;
import io.rpcx.annotation.Method;
import io.rpcx.annotation.RPCXClient;
import java.util.concurrent.CompletableFuture;

/** The asynchronous view of {@link ClusterService} a client may use instead. */
@RPCXClient(name = "cluster")
public interface ClusterServiceAsync {

  @Idempotent
  @Method("whoAmI")
  CompletableFuture<String> whoAmIAsync(int millis);
}
