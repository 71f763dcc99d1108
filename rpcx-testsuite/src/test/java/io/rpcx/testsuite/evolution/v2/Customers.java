package io.rpcx.testsuite.evolution.v2;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;

/** Version 2 of the customers service. */
@RPCXClient(name = "customers")
public interface Customers {

  Customer save(Customer customer);

  /** The version 2 implementation: keeps the last customer it received. */
  @RPCXServer(name = "customers")
  final class Impl implements Customers {
    public volatile Customer received;

    @Override
    public Customer save(Customer customer) {
      received = customer;
      return customer;
    }
  }
}
