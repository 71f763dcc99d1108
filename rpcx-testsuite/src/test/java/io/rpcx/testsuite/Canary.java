package io.rpcx.testsuite;

/**
 * A class that must never be loaded by RPCX: its name is sent in every string of a request. Its
 * static initializer records that it ran.
 */
public final class Canary {
  static {
    CanaryFlag.initialized = true;
  }

  private Canary() {}

  /** Where the canary records that it was loaded and initialized. */
  public static final class CanaryFlag {
    public static volatile boolean initialized;

    private CanaryFlag() {}
  }
}
