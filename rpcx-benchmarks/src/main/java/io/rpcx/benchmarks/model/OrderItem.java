package io.rpcx.benchmarks.model;

import java.io.Serializable;
import java.util.Objects;

/**
 * One line of an {@link OrderInfo}: what was bought, how many and at what price.
 *
 * <p>A mutable bean (no-argument constructor, getters and setters) because that is what Hessian,
 * Jackson and the RPCX codec all know how to build. Not thread-safe; the benchmarks share instances
 * between threads only for reading.
 */
public class OrderItem implements Serializable {
  private static final long serialVersionUID = 1L;

  private String sku;
  private String name;
  private int quantity;
  private double unitPrice;

  /** An empty item, for deserializers. */
  public OrderItem() {}

  /** An item with every field set. */
  public OrderItem(String sku, String name, int quantity, double unitPrice) {
    this.sku = sku;
    this.name = name;
    this.quantity = quantity;
    this.unitPrice = unitPrice;
  }

  public String getSku() {
    return sku;
  }

  public void setSku(String sku) {
    this.sku = sku;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public int getQuantity() {
    return quantity;
  }

  public void setQuantity(int quantity) {
    this.quantity = quantity;
  }

  public double getUnitPrice() {
    return unitPrice;
  }

  public void setUnitPrice(double unitPrice) {
    this.unitPrice = unitPrice;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof OrderItem)) {
      return false;
    }
    OrderItem other = (OrderItem) o;
    return quantity == other.quantity
        && Double.compare(unitPrice, other.unitPrice) == 0
        && Objects.equals(sku, other.sku)
        && Objects.equals(name, other.name);
  }

  @Override
  public int hashCode() {
    return Objects.hash(sku, name, quantity, unitPrice);
  }

  @Override
  public String toString() {
    return "OrderItem{sku=" + sku + ", quantity=" + quantity + ", unitPrice=" + unitPrice + '}';
  }
}
