package io.rpcx.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** RPCX type descriptors, as the JSON mapping reads them. */
class TypeRefTest {

  @Test
  void typeDescriptorsParseIntoNamesAndArgumentsKeepingTheirText() {
    TypeRef map = TypeRef.parse("map<string,list<OrderItem>>");
    assertEquals("map", map.name());
    assertEquals("map<string,list<OrderItem>>", map.text());
    assertEquals("list<OrderItem>", map.argument(1).text());
    assertEquals("OrderItem", map.argument(1).argument(0).name());
    assertEquals(List.of(), TypeRef.parse("google.protobuf.Timestamp").arguments());
    assertEquals("Page<User>", TypeRef.parse("Page<User>").text());

    IllegalArgumentException bad =
        assertThrows(IllegalArgumentException.class, () -> TypeRef.parse("list<int32"));
    assertEquals("'list<int32' is not an RPCX type descriptor (at character 10)", bad.getMessage());
  }
}
