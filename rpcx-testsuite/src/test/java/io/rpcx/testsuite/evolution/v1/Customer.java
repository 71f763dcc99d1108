package io.rpcx.testsuite.evolution.v1;

/** The first version of a class shared by client and server. */
public class Customer {
  public long id;
  public String name;
  public String fax;

  public Customer() {}

  public Customer(long id, String name, String fax) {
    this.id = id;
    this.name = name;
    this.fax = fax;
  }
}
