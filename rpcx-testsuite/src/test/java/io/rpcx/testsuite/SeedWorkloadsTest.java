package io.rpcx.testsuite;

import io.rpcx.testing.RpcxExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The seed workloads over loopback TCP. */
class SeedWorkloadsTest extends SeedWorkloads {

  @RegisterExtension static final RpcxExtension rpcx = exampleServices();

  @Override
  RpcxExtension rpcx() {
    return rpcx;
  }
}
