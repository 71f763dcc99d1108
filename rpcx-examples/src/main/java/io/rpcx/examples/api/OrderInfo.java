package io.rpcx.examples.api;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The order POJO of the Dubbo benchmark article (seed 004): a JavaBean with nested collections,
 * carried by RPCX with no IDL and no code to write.
 */
public class OrderInfo {
  private String billNumber;
  private long orderId;
  private String customer;
  private Instant createdAt;
  private OrderStatus status;
  private BigDecimal totalAmount;
  private boolean paid;
  private List<OrderItem> items;
  private Set<String> tags;
  private Map<String, String> attributes;
  private String remark;

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

  public Instant getCreatedAt() {
    return createdAt;
  }

  public void setCreatedAt(Instant createdAt) {
    this.createdAt = createdAt;
  }

  public OrderStatus getStatus() {
    return status;
  }

  public void setStatus(OrderStatus status) {
    this.status = status;
  }

  public BigDecimal getTotalAmount() {
    return totalAmount;
  }

  public void setTotalAmount(BigDecimal totalAmount) {
    this.totalAmount = totalAmount;
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

  public Set<String> getTags() {
    return tags;
  }

  public void setTags(Set<String> tags) {
    this.tags = tags;
  }

  public Map<String, String> getAttributes() {
    return attributes;
  }

  public void setAttributes(Map<String, String> attributes) {
    this.attributes = attributes;
  }

  public String getRemark() {
    return remark;
  }

  public void setRemark(String remark) {
    this.remark = remark;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof OrderInfo)) {
      return false;
    }
    OrderInfo that = (OrderInfo) other;
    return orderId == that.orderId
        && paid == that.paid
        && Objects.equals(billNumber, that.billNumber)
        && Objects.equals(customer, that.customer)
        && Objects.equals(createdAt, that.createdAt)
        && status == that.status
        && Objects.equals(totalAmount, that.totalAmount)
        && Objects.equals(items, that.items)
        && Objects.equals(tags, that.tags)
        && Objects.equals(attributes, that.attributes)
        && Objects.equals(remark, that.remark);
  }

  @Override
  public int hashCode() {
    return Objects.hash(billNumber, orderId);
  }

  @Override
  public String toString() {
    return "OrderInfo[" + billNumber + ", " + customer + ", " + status + ", "
        + (items == null ? 0 : items.size()) + " items, total " + totalAmount + "]";
  }
}
