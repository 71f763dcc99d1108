package io.rpcx.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import interop.InteropGrpc;
import interop.InteropOuterClass.AddRequest;
import interop.InteropOuterClass.BytesOfSizeRequest;
import interop.InteropOuterClass.EchoBooleanRequest;
import interop.InteropOuterClass.EchoBoxedReply;
import interop.InteropOuterClass.EchoBoxedRequest;
import interop.InteropOuterClass.EchoBytesRequest;
import interop.InteropOuterClass.EchoItemRequest;
import interop.InteropOuterClass.EchoItemsRequest;
import interop.InteropOuterClass.EchoLongRequest;
import interop.InteropOuterClass.EchoMapRequest;
import interop.InteropOuterClass.EchoReply;
import interop.InteropOuterClass.EchoRequest;
import interop.InteropOuterClass.EchoShelfRequest;
import interop.InteropOuterClass.Item;
import interop.InteropOuterClass.ListOfItem;
import interop.InteropOuterClass.ListOfString;
import interop.InteropOuterClass.MapOfStringToInt32;
import interop.InteropOuterClass.MapOfStringToString;
import interop.InteropOuterClass.Shelf;
import interop.InteropOuterClass.UpperLaterRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Unary calls from grpc-java's stubs, generated from the exported {@code .proto}, to plain
 * annotated Java methods on RPCX's port: every kind of value, as a record and as a POJO, with zero,
 * false, empty and null apart, and messages past 1 MiB and at 16 MiB.
 */
@Timeout(60)
class GrpcUnaryCallsTest {
  private static GrpcPeer peer;
  private static InteropGrpc.InteropBlockingStub stub;

  @BeforeAll
  static void start() {
    peer = GrpcPeer.start(InteropServer.builder(0).maxFrameSize(32 << 20));
    stub =
        InteropGrpc.newBlockingStub(peer.channel)
            .withDeadlineAfter(30, TimeUnit.SECONDS)
            .withMaxInboundMessageSize(64 << 20)
            .withMaxOutboundMessageSize(64 << 20);
  }

  @AfterAll
  static void stop() {
    peer.close();
  }

  private static Item item(long id, String name) {
    return Item.newBuilder()
        .setId(id)
        .setName(name)
        .setTags(ListOfString.newBuilder().addValues("a").addValues("").addNullPositions(2))
        .setAttributes(MapOfStringToString.newBuilder().putEntries("k", "v").putEntries("", ""))
        .setKind("SPECIAL")
        .build();
  }

  @Test
  void aStringComesBack() {
    EchoReply reply = stub.echo(EchoRequest.newBuilder().setText("hello, \u00e9t\u00e9 \uD83D\uDE00").build());
    assertEquals("hello, \u00e9t\u00e9 \uD83D\uDE00", reply.getValue());
  }

  @Test
  void emptyStringZeroAndFalseStayApartFromNull() {
    EchoReply empty = stub.echo(EchoRequest.newBuilder().setText("").build());
    assertTrue(empty.hasValue());
    assertEquals("", empty.getValue());
    assertFalse(stub.echo(EchoRequest.getDefaultInstance()).hasValue(), "null comes back unset");

    assertTrue(stub.echoLong(EchoLongRequest.newBuilder().setValue(0).build()).hasValue());
    assertEquals(0, stub.echoLong(EchoLongRequest.newBuilder().setValue(0).build()).getValue());
    assertEquals(
        Long.MIN_VALUE,
        stub.echoLong(EchoLongRequest.newBuilder().setValue(Long.MIN_VALUE).build()).getValue());
    assertTrue(stub.echoBoolean(EchoBooleanRequest.newBuilder().setValue(false).build()).hasValue());
    assertFalse(stub.echoBoolean(EchoBooleanRequest.newBuilder().setValue(false).build()).getValue());
    assertTrue(stub.echoBoolean(EchoBooleanRequest.newBuilder().setValue(true).build()).getValue());

    EchoBoxedReply zero = stub.echoBoxed(EchoBoxedRequest.newBuilder().setValue(0).build());
    assertTrue(zero.hasValue());
    assertEquals(0, zero.getValue());
    assertFalse(stub.echoBoxed(EchoBoxedRequest.getDefaultInstance()).hasValue());

    assertTrue(stub.echoBytes(EchoBytesRequest.newBuilder().setData(ByteString.EMPTY).build()).hasValue());
    assertFalse(stub.echoBytes(EchoBytesRequest.getDefaultInstance()).hasValue());
  }

  @Test
  void anUnsetPrimitiveArgumentIsRefusedNamingIt() {
    StatusRuntimeException refused =
        assertThrows(
            StatusRuntimeException.class, () -> stub.echoLong(EchoLongRequest.getDefaultInstance()));
    assertEquals(Status.Code.INVALID_ARGUMENT, refused.getStatus().getCode());
    assertTrue(
        refused.getStatus().getDescription().contains("is absent, but the parameter is a primitive long"),
        refused.getStatus().getDescription());
  }

  @Test
  void twoArgumentsOfDifferentTypes() {
    assertEquals(
        5_000_000_007L,
        stub.add(AddRequest.newBuilder().setA(7).setB(5_000_000_000L).build()).getValue());
    assertEquals(-3, stub.add(AddRequest.newBuilder().setA(-3).setB(0).build()).getValue());
  }

  @Test
  void aRecordWithNestedCollectionsAndAnEnum() {
    Item item = item(42, "answer");
    assertEquals(item, stub.echoItem(EchoItemRequest.newBuilder().setItem(item).build()).getValue());
    assertFalse(stub.echoItem(EchoItemRequest.getDefaultInstance()).hasValue());
  }

  @Test
  void aPojoHoldingRecords() {
    Shelf shelf =
        Shelf.newBuilder()
            .setLabel("top")
            .setCapacity(3)
            .setOpen(true)
            .setItems(ListOfItem.newBuilder().addValues(item(1, "one")).addValues(item(0, "")))
            .build();
    assertEquals(shelf, stub.echoShelf(EchoShelfRequest.newBuilder().setShelf(shelf).build()).getValue());
    Shelf empty = Shelf.newBuilder().setItems(ListOfItem.getDefaultInstance()).build();
    assertEquals(empty, stub.echoShelf(EchoShelfRequest.newBuilder().setShelf(empty).build()).getValue());
  }

  @Test
  void aListOfAHundredRecordsAndAMap() {
    ListOfItem.Builder items = ListOfItem.newBuilder();
    for (int i = 0; i < 100; i++) {
      items.addValues(item(i, "item-" + i));
    }
    items.addNullPositions(50);
    ListOfItem list = items.build();
    assertEquals(list, stub.echoItems(EchoItemsRequest.newBuilder().setItems(list).build()).getValue());

    MapOfStringToInt32 counts = MapOfStringToInt32.newBuilder().putEntries("a", 1).putEntries("zero", 0).build();
    assertEquals(counts, stub.echoMap(EchoMapRequest.newBuilder().setCounts(counts).build()).getValue());
  }

  @Test
  void anAsynchronousImplementation() {
    assertEquals("LATER", stub.upperLater(UpperLaterRequest.newBuilder().setText("later").build()).getValue());
  }

  @Test
  void bytesOfOneAndSixteenMebibytesBothWays() {
    for (int size : new int[] {0, 1, 1 << 20, (1 << 20) + 1, 16 << 20}) {
      ByteString reply = stub.bytesOfSize(BytesOfSizeRequest.newBuilder().setSize(size).build()).getValue();
      assertEquals(size, reply.size());
      for (int i = 0; i < size; i += 4093) {
        assertEquals((byte) i, reply.byteAt(i));
      }
      assertEquals(reply, stub.echoBytes(EchoBytesRequest.newBuilder().setData(reply).build()).getValue());
    }
  }

  @Test
  void aMessageOverTheServersLimitIsResourceExhausted() {
    ByteString tooLarge = ByteString.copyFrom(new byte[(32 << 20) + 1]);
    StatusRuntimeException refused =
        assertThrows(
            StatusRuntimeException.class,
            () -> stub.echoBytes(EchoBytesRequest.newBuilder().setData(tooLarge).build()));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused.getStatus().getCode());
    assertTrue(refused.getStatus().getDescription().contains("over the limit"), refused.getStatus().getDescription());

    StatusRuntimeException replyRefused =
        assertThrows(
            StatusRuntimeException.class,
            () -> stub.bytesOfSize(BytesOfSizeRequest.newBuilder().setSize(32 << 20).build()));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, replyRefused.getStatus().getCode());

    // the connection is fine afterwards
    assertEquals("still", stub.echo(EchoRequest.newBuilder().setText("still").build()).getValue());
  }
}
