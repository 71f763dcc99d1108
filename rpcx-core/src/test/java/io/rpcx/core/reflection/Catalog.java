package io.rpcx.core.reflection;

import io.rpcx.annotation.Idempotent;
import io.rpcx.annotation.Method;
import io.rpcx.annotation.RPCXClient;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/** A service whose values take every shape RPCX carries, each as a class and as a record. */
@RPCXClient(name = "shop.v1.Catalog", timeoutMillis = 2_000)
public interface Catalog {

  Everything echo(Everything everything);

  @Idempotent
  @Method("find-items")
  List<ItemRecord> findItems(String query, int limit) throws ItemsUnavailableException;

  void ping();

  Node tree(Node root);

  com.google.protobuf.Struct configure(com.google.protobuf.Struct settings);

  /** A type that reaches itself. */
  record Node(String name, List<Node> children) {}

  /** A checked exception the catalog declares. */
  final class ItemsUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    public ItemsUnavailableException(String message) {
      super(message);
    }
  }

  enum Color {
    RED,
    GREEN,
    BLUE
  }

  record ItemRecord(String name, int quantity, Color color) {}

  /** The same item as a JavaBean-style class. */
  final class ItemClass {
    private String name;
    private int quantity;
    private Color color;

    public ItemClass() {}

    public ItemClass(String name, int quantity, Color color) {
      this.name = name;
      this.quantity = quantity;
      this.color = color;
    }

    public String name() {
      return name;
    }

    public int quantity() {
      return quantity;
    }

    public Color color() {
      return color;
    }
  }

  record Page<T>(List<T> content, int number) {}

  record Everything(
      boolean flag,
      int count,
      long total,
      char letter,
      float ratio,
      double weight,
      String text,
      byte[] blob,
      Color color,
      Instant at,
      Duration took,
      LocalDate day,
      LocalDateTime moment,
      BigDecimal amount,
      BigInteger big,
      UUID id,
      List<ItemRecord> records,
      List<ItemClass> classes,
      Set<String> tags,
      Map<String, ItemRecord> byName,
      Map<UUID, Integer> counts,
      List<List<Integer>> grid,
      int[] numbers,
      Optional<String> note,
      Page<ItemClass> page) {}
}
