package io.rpcx.benchmarks.grpc;

import bench.BenchOuterClass;
import bench.BenchOuterClass.ListOfOrderInfo;
import bench.BenchOuterClass.ListOfOrderItem;
import bench.BenchOuterClass.ListOfString;
import bench.BenchOuterClass.MapOfStringToString;
import io.rpcx.benchmarks.model.Message;
import io.rpcx.benchmarks.model.OrderInfo;
import io.rpcx.benchmarks.model.OrderItem;
import io.rpcx.benchmarks.model.OrderStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Copies the benchmark POJOs to and from the messages generated from RPCX's export of the
 * benchmark service ({@code bench.proto}, Java package {@code bench}), field for field: what a gRPC
 * user with a POJO model writes against that export, as {@link ProtoMapper} is for the hand-written
 * {@code bench.proto}. The export's shapes follow RPCX's codec: an enum is its name, a list a
 * {@code ListOf<T>} message, a map a {@code MapOf<K>To<V>} message. Null elements, which the
 * payloads never hold, are not mapped ({@code nullPositions} stays empty). Stateless and
 * thread-safe.
 */
final class ExportedMapper {
  private ExportedMapper() {}

  static BenchOuterClass.OrderInfo toExported(OrderInfo order) {
    ListOfOrderItem.Builder items = ListOfOrderItem.newBuilder();
    for (OrderItem item : order.getItems()) {
      items.addValues(
          BenchOuterClass.OrderItem.newBuilder()
              .setSku(item.getSku())
              .setName(item.getName())
              .setQuantity(item.getQuantity())
              .setUnitPrice(item.getUnitPrice()));
    }
    return BenchOuterClass.OrderInfo.newBuilder()
        .setBillNumber(order.getBillNumber())
        .setOrderId(order.getOrderId())
        .setCustomer(order.getCustomer())
        .setCreatedAtMillis(order.getCreatedAtMillis())
        .setAmount(order.getAmount())
        .setStatus(order.getStatus().name())
        .setPaid(order.isPaid())
        .setItems(items)
        .setTags(ListOfString.newBuilder().addAllValues(order.getTags()))
        .setAttributes(MapOfStringToString.newBuilder().putAllEntries(order.getAttributes()))
        .build();
  }

  static OrderInfo fromExported(BenchOuterClass.OrderInfo exported) {
    OrderInfo order = new OrderInfo();
    order.setBillNumber(exported.getBillNumber());
    order.setOrderId(exported.getOrderId());
    order.setCustomer(exported.getCustomer());
    order.setCreatedAtMillis(exported.getCreatedAtMillis());
    order.setAmount(exported.getAmount());
    order.setStatus(OrderStatus.valueOf(exported.getStatus()));
    order.setPaid(exported.getPaid());
    List<OrderItem> items = new ArrayList<>(exported.getItems().getValuesCount());
    for (BenchOuterClass.OrderItem item : exported.getItems().getValuesList()) {
      items.add(
          new OrderItem(item.getSku(), item.getName(), item.getQuantity(), item.getUnitPrice()));
    }
    order.setItems(items);
    order.setTags(new ArrayList<>(exported.getTags().getValuesList()));
    order.setAttributes(new LinkedHashMap<>(exported.getAttributes().getEntriesMap()));
    return order;
  }

  static ListOfOrderInfo toExported(List<OrderInfo> orders) {
    ListOfOrderInfo.Builder list = ListOfOrderInfo.newBuilder();
    for (OrderInfo order : orders) {
      list.addValues(toExported(order));
    }
    return list.build();
  }

  static List<OrderInfo> fromExported(ListOfOrderInfo exported) {
    List<OrderInfo> orders = new ArrayList<>(exported.getValuesCount());
    for (BenchOuterClass.OrderInfo order : exported.getValuesList()) {
      orders.add(fromExported(order));
    }
    return orders;
  }

  static BenchOuterClass.Message toExported(Message message) {
    return BenchOuterClass.Message.newBuilder()
        .setId(message.getId())
        .setText(message.getText())
        .setCreatedAtMillis(message.getCreatedAtMillis())
        .build();
  }

  static Message fromExported(BenchOuterClass.Message exported) {
    return new Message(exported.getId(), exported.getText(), exported.getCreatedAtMillis());
  }
}
