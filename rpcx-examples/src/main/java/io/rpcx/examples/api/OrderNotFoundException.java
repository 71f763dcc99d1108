package io.rpcx.examples.api;

/** A checked exception declared by a remote method: the client receives it as itself. */
public class OrderNotFoundException extends Exception {
  private static final long serialVersionUID = 1L;

  public OrderNotFoundException(String message) {
    super(message);
  }
}
