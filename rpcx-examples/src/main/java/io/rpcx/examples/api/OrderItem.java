package io.rpcx.examples.api;

import java.math.BigDecimal;
import java.util.Objects;

/** One line of an {@link OrderInfo}: a plain JavaBean. */
public class OrderItem {
  private String sku;
  private String name;
  private int quantity;
  private BigDecimal unitPrice;

  public OrderItem() {}

  public OrderItem(String sku, String name, int quantity, BigDecimal unitPrice) {
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

  public BigDecimal getUnitPrice() {
    return unitPrice;
  }

  public void setUnitPrice(BigDecimal unitPrice) {
    this.unitPrice = unitPrice;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof OrderItem)) {
      return false;
    }
    OrderItem that = (OrderItem) other;
    return quantity == that.quantity
        && Objects.equals(sku, that.sku)
        && Objects.equals(name, that.name)
        && Objects.equals(unitPrice, that.unitPrice);
  }

  @Override
  public int hashCode() {
    return Objects.hash(sku, name, quantity, unitPrice);
  }

  @Override
  public String toString() {
    return quantity + " x " + sku + " @ " + unitPrice;
  }
}
