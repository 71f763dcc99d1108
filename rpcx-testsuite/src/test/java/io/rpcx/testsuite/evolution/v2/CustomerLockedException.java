package io.rpcx.testsuite.evolution.v2;

import java.time.Instant;

/** Version 2 of an exception with fields: who holds the lock, and until when (a field added). */
public class CustomerLockedException extends Exception {
  private static final long serialVersionUID = 1L;

  private final long id;
  private final String by;
  private final Instant until;

  public CustomerLockedException(long id, String by, Instant until) {
    super("customer " + id + " is locked by " + by + " until " + until);
    this.id = id;
    this.by = by;
    this.until = until;
  }

  public long id() {
    return id;
  }

  public String by() {
    return by;
  }

  public Instant until() {
    return until;
  }
}
