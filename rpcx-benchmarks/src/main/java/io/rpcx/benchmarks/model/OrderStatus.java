package io.rpcx.benchmarks.model;

/** Life-cycle state of an {@link OrderInfo}; an enum so every system has to carry one. */
public enum OrderStatus {
  CREATED,
  PAID,
  SHIPPED,
  DELIVERED,
  CANCELLED
}
