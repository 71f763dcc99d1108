package io.rpcx.core.internal.codec.pojo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rpcx.core.internal.codec.CodecRegistry;
import io.rpcx.core.internal.codec.CodecTesting;
import io.rpcx.core.internal.codec.UnsupportedTypeException;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.model.StandardCodecs;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * A generic class is a value when the declared type binds every type parameter to a concrete
 * type: {@code Page<User>} as Apache's dubbo-benchmark declares it. Each parameterization is a
 * codec of its own with its own wire name; type variables and wildcards stay refused.
 */
class GenericValuesTest {

  /** A page of results, as the dubbo-benchmark's {@code Page<T>}. */
  static final class Page<T> {
    int pageNo;
    int total;
    List<T> result;

    Page() {}

    Page(int pageNo, int total, List<T> result) {
      this.pageNo = pageNo;
      this.total = total;
      this.result = result;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Page
          && pageNo == ((Page<?>) other).pageNo
          && total == ((Page<?>) other).total
          && Objects.equals(result, ((Page<?>) other).result);
    }

    @Override
    public int hashCode() {
      return Objects.hash(pageNo, total, result);
    }
  }

  record User(long id, String name) {}

  record Order(String number, long cents) {}

  /** A generic record holding a value or an error. */
  record Result<V>(V value, String error) {}

  /** Fields of a generic superclass, bound by the subclass. */
  static class Entity<K> {
    K id;
  }

  static final class Customer extends Entity<String> {
    String name;

    @Override
    public boolean equals(Object other) {
      return other instanceof Customer
          && Objects.equals(id, ((Customer) other).id)
          && Objects.equals(name, ((Customer) other).name);
    }

    @Override
    public int hashCode() {
      return Objects.hash(id, name);
    }
  }

  /** A recursive generic type: a node whose children are nodes of the same type argument. */
  static final class Tree<T> {
    T value;
    List<Tree<T>> children = new ArrayList<>();
    T[] path;

    @Override
    public boolean equals(Object other) {
      return other instanceof Tree
          && Objects.equals(value, ((Tree<?>) other).value)
          && Objects.equals(children, ((Tree<?>) other).children)
          && java.util.Arrays.equals(path, ((Tree<?>) other).path);
    }

    @Override
    public int hashCode() {
      return Objects.hash(value, children);
    }
  }

  static final class Pair<A, B> {
    A first;
    B second;
  }

  // Declared types, taken from these fields.
  Page<User> pageOfUsers;
  Page<Order> pageOfOrders;
  Result<List<Order>> resultOfOrders;
  Result<Map<String, Page<User>>> resultOfPagesByName;
  Tree<String> treeOfStrings;
  Pair<Long, Result<String>> pair;

  private static Type declared(String field) throws NoSuchFieldException {
    return GenericValuesTest.class.getDeclaredField(field).getGenericType();
  }

  @Test
  void aPageOfUsersAndAPageOfOrdersAreTwoTypesWithTheirOwnNames() throws Exception {
    CodecRegistry registry = StandardCodecs.registry();
    ValueCodec<?> users = registry.codecFor(declared("pageOfUsers"));
    ValueCodec<?> orders = registry.codecFor(declared("pageOfOrders"));
    assertEquals("Page<User>", users.typeName());
    assertEquals("Page<Order>", orders.typeName());
    assertSame(users, registry.codecFor(declared("pageOfUsers")));

    Page<User> page = new Page<>(2, 41, List.of(new User(1, "ada"), new User(2, "grace")));
    assertEquals(page, CodecTesting.roundTrip(declared("pageOfUsers"), page));
    Page<Order> orderPage = new Page<>(1, 1, List.of(new Order("A-1", 1999)));
    assertEquals(orderPage, CodecTesting.roundTrip(declared("pageOfOrders"), orderPage));
  }

  @Test
  void genericRecordsNestedTypeArgumentsAndMapsOfGenericsRoundTrip() throws Exception {
    assertEquals(
        "Result<list<Order>>",
        StandardCodecs.registry().codecFor(declared("resultOfOrders")).typeName());
    Result<List<Order>> orders = new Result<>(List.of(new Order("B-2", 5)), null);
    assertEquals(orders, CodecTesting.roundTrip(declared("resultOfOrders"), orders));

    assertEquals(
        "Result<map<string,Page<User>>>",
        StandardCodecs.registry().codecFor(declared("resultOfPagesByName")).typeName());
    Result<Map<String, Page<User>>> pages =
        new Result<>(Map.of("first", new Page<>(1, 1, List.of(new User(3, "lin")))), "partial");
    assertEquals(pages, CodecTesting.roundTrip(declared("resultOfPagesByName"), pages));

    assertEquals(
        "Pair<int64,Result<string>>",
        StandardCodecs.registry().codecFor(declared("pair")).typeName());
  }

  @Test
  void aSuperclassesTypeParametersAreBoundByItsSubclass() throws Exception {
    Customer customer = new Customer();
    customer.id = "c-7";
    customer.name = "Ada";
    assertEquals("Customer", StandardCodecs.registry().codecFor(Customer.class).typeName());
    assertEquals(customer, CodecTesting.roundTrip(Customer.class, customer));
  }

  @Test
  void aRecursiveGenericTypeResolvesToItself() throws Exception {
    Tree<String> root = new Tree<>();
    root.value = "root";
    root.path = new String[] {"r"};
    Tree<String> leaf = new Tree<>();
    leaf.value = "leaf";
    leaf.path = new String[] {"r", "l"};
    root.children.add(leaf);
    assertEquals(root, CodecTesting.roundTrip(declared("treeOfStrings"), root));
  }

  /** Refused: a wildcard names no class to create (type variables: ServiceModelsTest). */
  static final class HoldsWildcard {
    Page<?> page;
  }

  @Test
  void aWildcardAsATypeArgumentIsRefusedNamingTheType() {
    UnsupportedTypeException wildcard =
        assertThrows(
            UnsupportedTypeException.class,
            () -> StandardCodecs.registry().codecFor(HoldsWildcard.class));
    assertEquals(
        "unsupported type io.rpcx.core.internal.codec.pojo.GenericValuesTest$Page<?>, field 'page' of"
            + " io.rpcx.core.internal.codec.pojo.GenericValuesTest$HoldsWildcard: its type argument T"
            + " of io.rpcx.core.internal.codec.pojo.GenericValuesTest$Page<?> is the wildcard '?',"
            + " which names no class to create; declare a concrete type",
        wildcard.getMessage());
  }
}
