package io.rpcx.examples.api;

import io.rpcx.annotation.RPCXClient;

/** The person lookup of the RPC performance paper (seed 002): with or without a 1 MiB photo. */
@RPCXClient(name = "infos", address = "127.0.0.1", port = 9000)
public interface InfoService {

  Info request(int id, boolean photo);
}
