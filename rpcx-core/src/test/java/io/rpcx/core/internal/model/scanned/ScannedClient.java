package io.rpcx.core.internal.model.scanned;

import io.rpcx.annotation.RPCXClient;

/** Found by scanning this package. */
@RPCXClient(name = "scanned")
public interface ScannedClient {
  String ping(String text);
}
