package io.rpcx.examples.api;

/** Lifecycle of an order. */
public enum OrderStatus {
  CREATED,
  PAID,
  SHIPPED,
  DELIVERED,
  CANCELLED
}
