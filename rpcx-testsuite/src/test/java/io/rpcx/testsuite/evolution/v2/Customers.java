package io.rpcx.testsuite.evolution.v2;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import java.time.Instant;

/** Version 2 of the customers service. */
@RPCXClient(name = "customers")
public interface Customers {

  Customer save(Customer customer);

  /** Removes a customer; fails when another user holds it. */
  void remove(long id) throws CustomerLockedException;

  /** The version 2 implementation: keeps the last customer it received. */
  @RPCXServer(name = "customers")
  final class Impl implements Customers {
    public volatile Customer received;

    @Override
    public Customer save(Customer customer) {
      received = customer;
      return customer;
    }

    @Override
    public void remove(long id) throws CustomerLockedException {
      throw new CustomerLockedException(id, "ada", Instant.parse("2030-01-01T00:00:00Z"));
    }
  }
}
