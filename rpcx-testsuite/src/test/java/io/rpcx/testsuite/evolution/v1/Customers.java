package io.rpcx.testsuite.evolution.v1;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;

/** Version 1 of the customers service. */
@RPCXClient(name = "customers")
public interface Customers {

  /** Stores a customer and returns what the server holds afterwards. */
  Customer save(Customer customer);

  /** Removes a customer; fails when another user holds it. */
  void remove(long id) throws CustomerLockedException;

  /** The version 1 implementation: keeps the last customer it received. */
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
      throw new CustomerLockedException(id, "ada");
    }
  }
}
