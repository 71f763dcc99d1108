package io.rpcx.spring.boot.autoconfigure;

import io.rpcx.client.RpcxClient;

/**
 * What the auto-configuration adds to the client before the application's interceptors (its
 * observations), so that it sees every call they fail too.
 */
@FunctionalInterface
interface ClientInstrumentation {
  void instrument(RpcxClient.Builder builder);
}
