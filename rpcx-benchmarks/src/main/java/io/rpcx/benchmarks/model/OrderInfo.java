package io.rpcx.benchmarks.model;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The "single POJO with nested collections" of the Dubbo protocol comparison (seed 004): an order
 * with scalar fields, an enum, a list of {@link OrderItem}s, a list of tags and a map of
 * attributes.
 *
 * <p>Only types that every benchmarked system maps the same way are used: strings, {@code long},
 * {@code int}, {@code double}, {@code boolean}, an enum, {@code List} and {@code Map<String,
 * String>}; no {@code BigDecimal} or {@code java.time} types, whose encodings differ between
 * Hessian, Jackson and protobuf. Times are epoch milliseconds.
 *
 * <p>A mutable bean, {@link Serializable} for Hessian. Collections are never {@code null} after
 * construction; setters copy nothing (deserializers hand over their own lists). Not thread-safe.
 */
public class OrderInfo implements Serializable {
  private static final long serialVersionUID = 1L;

  private String billNumber;
  private long orderId;
  private String customer;
  private long createdAtMillis;
  private double amount;
  private OrderStatus status;
  private boolean paid;
  private List<OrderItem> items = new ArrayList<>();
  private List<String> tags = new ArrayList<>();
  private Map<String, String> attributes = new LinkedHashMap<>();

  /** An empty order, for deserializers. */
  public OrderInfo() {}

  public String getBillNumber() {
    return billNumber;
  }

  public void setBillNumber(String billNumber) {
    this.billNumber = billNumber;
  }

  public long getOrderId() {
    return orderId;
  }

  public void setOrderId(long orderId) {
    this.orderId = orderId;
  }

  public String getCustomer() {
    return customer;
  }

  public void setCustomer(String customer) {
    this.customer = customer;
  }

  public long getCreatedAtMillis() {
    return createdAtMillis;
  }

  public void setCreatedAtMillis(long createdAtMillis) {
    this.createdAtMillis = createdAtMillis;
  }

  public double getAmount() {
    return amount;
  }

  public void setAmount(double amount) {
    this.amount = amount;
  }

  public OrderStatus getStatus() {
    return status;
  }

  public void setStatus(OrderStatus status) {
    this.status = status;
  }

  public boolean isPaid() {
    return paid;
  }

  public void setPaid(boolean paid) {
    this.paid = paid;
  }

  public List<OrderItem> getItems() {
    return items;
  }

  public void setItems(List<OrderItem> items) {
    this.items = items;
  }

  public List<String> getTags() {
    return tags;
  }

  public void setTags(List<String> tags) {
    this.tags = tags;
  }

  public Map<String, String> getAttributes() {
    return attributes;
  }

  public void setAttributes(Map<String, String> attributes) {
    this.attributes = attributes;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof OrderInfo)) {
      return false;
    }
    OrderInfo other = (OrderInfo) o;
    return orderId == other.orderId
        && createdAtMillis == other.createdAtMillis
        && Double.compare(amount, other.amount) == 0
        && paid == other.paid
        && status == other.status
        && Objects.equals(billNumber, other.billNumber)
        && Objects.equals(customer, other.customer)
        && Objects.equals(items, other.items)
        && Objects.equals(tags, other.tags)
        && Objects.equals(attributes, other.attributes);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        billNumber,
        orderId,
        customer,
        createdAtMillis,
        amount,
        status,
        paid,
        items,
        tags,
        attributes);
  }

  @Override
  public String toString() {
    return "OrderInfo{billNumber="
        + billNumber
        + ", orderId="
        + orderId
        + ", items="
        + items.size()
        + '}';
  }
}
