package io.rpcx.spring.boot.autoconfigure;

import io.rpcx.server.RpcxServer;

/**
 * What the auto-configuration adds to the server before the application's interceptors (its
 * observations), so that it sees every call they refuse too.
 */
@FunctionalInterface
interface ServerInstrumentation {
  void instrument(RpcxServer.Builder builder);
}
