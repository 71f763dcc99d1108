package io.rpcx.core.internal.codec.pojo.v2;

import java.util.List;

/** Version 2: {@code fax} removed, {@code email} and {@code tags} added (with a default). */
public class Customer {
  public String email;
  public long id;
  public String name;
  public List<String> tags = List.of("new");
  public int visits;

  public Customer() {}

  public Customer(long id, String name, String email, int visits) {
    this.id = id;
    this.name = name;
    this.email = email;
    this.visits = visits;
  }
}
