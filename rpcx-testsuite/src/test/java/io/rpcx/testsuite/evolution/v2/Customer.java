package io.rpcx.testsuite.evolution.v2;

import java.util.List;

/** The second version: fax removed; email and tags added, tags with a default. */
public class Customer {
  public String email;
  public long id;
  public String name;
  public List<String> tags = List.of("unclassified");

  public Customer() {}

  public Customer(long id, String name, String email) {
    this.id = id;
    this.name = name;
    this.email = email;
  }
}
