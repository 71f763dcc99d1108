package io.rpcx.testsuite.evolution.v1;

/** Version 1 of an exception with fields: who holds the lock. */
public class CustomerLockedException extends Exception {
  private static final long serialVersionUID = 1L;

  private final long id;
  private final String by;

  public CustomerLockedException(long id, String by) {
    super("customer " + id + " is locked by " + by);
    this.id = id;
    this.by = by;
  }

  public long id() {
    return id;
  }

  public String by() {
    return by;
  }
}
