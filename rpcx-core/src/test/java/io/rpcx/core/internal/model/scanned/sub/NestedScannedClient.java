package io.rpcx.core.internal.model.scanned.sub;

import io.rpcx.annotation.RPCXClient;

/** Found by scanning the parent package: scans include subpackages. */
@RPCXClient(name = "nested")
public interface NestedScannedClient {
  int count();
}
