package io.rpcx.testsuite;

import io.rpcx.testing.RpcxExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The seed workloads in-process: Netty's local channels, the same pipeline as over TCP. */
class SeedWorkloadsInProcessTest extends SeedWorkloads {

  @RegisterExtension static final RpcxExtension rpcx = exampleServices().inProcess();

  @Override
  RpcxExtension rpcx() {
    return rpcx;
  }
}
