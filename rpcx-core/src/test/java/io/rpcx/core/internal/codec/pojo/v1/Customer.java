package io.rpcx.core.internal.codec.pojo.v1;

/** Version 1 of a class that evolves: v2 adds {@code email} and removes {@code fax}. */
public class Customer {
  public long id;
  public String name;
  public String fax;
  public int visits;

  public Customer() {}

  public Customer(long id, String name, String fax, int visits) {
    this.id = id;
    this.name = name;
    this.fax = fax;
    this.visits = visits;
  }
}
