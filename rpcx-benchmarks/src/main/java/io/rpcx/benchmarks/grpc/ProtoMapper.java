package io.rpcx.benchmarks.grpc;

import io.rpcx.benchmarks.grpc.proto.ChatMessage;
import io.rpcx.benchmarks.grpc.proto.Order;
import io.rpcx.benchmarks.grpc.proto.OrderList;
import io.rpcx.benchmarks.grpc.proto.Status;
import io.rpcx.benchmarks.model.Message;
import io.rpcx.benchmarks.model.OrderInfo;
import io.rpcx.benchmarks.model.OrderItem;
import io.rpcx.benchmarks.model.OrderStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Copies the benchmark POJOs to and from their generated protobuf messages, field for field. This
 * is the code a gRPC user whose domain model is POJOs writes by hand, and its cost is part of what
 * the gRPC client is measured for. Stateless and thread-safe.
 */
public final class ProtoMapper {
  private static final Status[] TO_PROTO = new Status[OrderStatus.values().length];
  private static final OrderStatus[] FROM_PROTO = new OrderStatus[OrderStatus.values().length];

  static {
    for (OrderStatus s : OrderStatus.values()) {
      Status proto = Status.valueOf("STATUS_" + s.name());
      TO_PROTO[s.ordinal()] = proto;
      FROM_PROTO[proto.getNumber()] = s;
    }
  }

  private ProtoMapper() {}

  public static Order toProto(OrderInfo order) {
    Order.Builder b =
        Order.newBuilder()
            .setBillNumber(order.getBillNumber())
            .setOrderId(order.getOrderId())
            .setCustomer(order.getCustomer())
            .setCreatedAtMillis(order.getCreatedAtMillis())
            .setAmount(order.getAmount())
            .setStatus(TO_PROTO[order.getStatus().ordinal()])
            .setPaid(order.isPaid())
            .addAllTags(order.getTags())
            .putAllAttributes(order.getAttributes());
    for (OrderItem item : order.getItems()) {
      b.addItems(
          io.rpcx.benchmarks.grpc.proto.OrderItem.newBuilder()
              .setSku(item.getSku())
              .setName(item.getName())
              .setQuantity(item.getQuantity())
              .setUnitPrice(item.getUnitPrice()));
    }
    return b.build();
  }

  public static OrderInfo fromProto(Order proto) {
    OrderInfo order = new OrderInfo();
    order.setBillNumber(proto.getBillNumber());
    order.setOrderId(proto.getOrderId());
    order.setCustomer(proto.getCustomer());
    order.setCreatedAtMillis(proto.getCreatedAtMillis());
    order.setAmount(proto.getAmount());
    order.setStatus(FROM_PROTO[proto.getStatusValue()]);
    order.setPaid(proto.getPaid());
    List<OrderItem> items = new ArrayList<>(proto.getItemsCount());
    for (io.rpcx.benchmarks.grpc.proto.OrderItem item : proto.getItemsList()) {
      items.add(
          new OrderItem(item.getSku(), item.getName(), item.getQuantity(), item.getUnitPrice()));
    }
    order.setItems(items);
    order.setTags(new ArrayList<>(proto.getTagsList()));
    order.setAttributes(new LinkedHashMap<>(proto.getAttributesMap()));
    return order;
  }

  public static OrderList toProto(List<OrderInfo> orders) {
    OrderList.Builder b = OrderList.newBuilder();
    for (OrderInfo order : orders) {
      b.addOrders(toProto(order));
    }
    return b.build();
  }

  public static List<OrderInfo> fromProto(OrderList proto) {
    List<OrderInfo> orders = new ArrayList<>(proto.getOrdersCount());
    for (Order order : proto.getOrdersList()) {
      orders.add(fromProto(order));
    }
    return orders;
  }

  public static ChatMessage toProto(Message message) {
    return ChatMessage.newBuilder()
        .setId(message.getId())
        .setText(message.getText())
        .setCreatedAtMillis(message.getCreatedAtMillis())
        .build();
  }

  public static Message fromProto(ChatMessage proto) {
    return new Message(proto.getId(), proto.getText(), proto.getCreatedAtMillis());
  }
}
