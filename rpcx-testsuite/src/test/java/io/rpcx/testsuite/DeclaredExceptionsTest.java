package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.CodedInputStream;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.RemoteFailureException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.ByteArrayProtoWriter;
import io.rpcx.core.internal.protocol.ReplyWriter;
import io.rpcx.core.internal.protocol.ThrownException;
import io.rpcx.core.internal.protocol.Preface;
import io.rpcx.server.RpcxServer;
import io.rpcx.testing.RpcxExtension;
import io.rpcx.testsuite.Shop.Alternative;
import io.rpcx.testsuite.Shop.BackorderedException;
import io.rpcx.testsuite.Shop.CardDeclinedException;
import io.rpcx.testsuite.Shop.FraudSuspectedException;
import io.rpcx.testsuite.Shop.OutOfStockException;
import io.rpcx.testsuite.Shop.PaymentException;
import io.rpcx.testsuite.Shop.QuotaExceededException;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A checked exception the method declares arrives as itself, with its fields: carried by the
 * codecs of values (nested records and collections, large ones past the frame thresholds, null,
 * zero and empty apart), rebuilt through its constructor on the calling side, for the classes of
 * the {@code throws} clause only; an exception that could not be rebuilt is refused at start-up,
 * naming it and what is missing; a server that predates fields gets what it always got.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DeclaredExceptionsTest {
  @RegisterExtension
  static final RpcxExtension rpcx = RpcxExtension.withServices(new Shop.Impl());

  private final Shop shop = rpcx.create(Shop.class);

  @Test
  void aDomainExceptionArrivesAsItselfWithItsFields() {
    List<Alternative> alternatives = List.of(new Alternative("B-2", 7), new Alternative(null, 0));
    OutOfStockException e =
        assertThrows(OutOfStockException.class, () -> shop.buy("A-1", 5, alternatives));
    assertEquals("A-1", e.getSku());
    assertEquals(5, e.getRequested());
    assertEquals(2, e.getAvailable());
    assertEquals(alternatives, e.getAlternatives());
    assertEquals("out of stock: A-1 (5 requested, 2 available)", e.getMessage());
  }

  @Test
  void nullZeroAndEmptyFieldsStayApart() {
    OutOfStockException empty =
        assertThrows(OutOfStockException.class, () -> shop.buy("", 0, List.of()));
    assertEquals("", empty.getSku());
    assertEquals(0, empty.getRequested());
    assertEquals(List.of(), empty.getAlternatives());

    OutOfStockException nulls =
        assertThrows(OutOfStockException.class, () -> shop.buy(null, 1, null));
    assertNull(nulls.getSku());
    assertEquals(1, nulls.getRequested());
    assertNull(nulls.getAlternatives());
    assertEquals("out of stock: null (1 requested, 0 available)", nulls.getMessage());
  }

  @Test
  void aRecordLikeExceptionIsRebuiltThroughItsCanonicalConstructorWithTheMessage() {
    QuotaExceededException e =
        assertThrows(
            QuotaExceededException.class,
            () -> shop.upload("ada", 1L << 40, List.of("a.txt", "b.txt")));
    assertEquals("ada", e.user());
    assertEquals(1L << 40, e.limit());
    assertEquals(List.of("a.txt", "b.txt"), e.recent());
    assertEquals("ada is over the quota of 1099511627776 bytes", e.getMessage());

    QuotaExceededException zero =
        assertThrows(QuotaExceededException.class, () -> shop.upload(null, 0, List.of()));
    assertNull(zero.user());
    assertEquals(0, zero.limit());
    assertEquals(List.of(), zero.recent());
  }

  @Test
  void largeFieldsPastTheFrameThresholdsTravel() {
    List<Alternative> many = new ArrayList<>();
    for (int i = 0; i < 8_000; i++) {
      many.add(new Alternative("SKU-" + i, i)); // about 120 KiB: past staging and merging
    }
    OutOfStockException e = assertThrows(OutOfStockException.class, () -> shop.buy("A-1", 3, many));
    assertEquals(many, e.getAlternatives());
  }

  @Test
  void aMemberOfASealedDeclaredExceptionArrivesAsItself() {
    PaymentException declined = assertThrows(PaymentException.class, () -> shop.pay("4242", 0.1));
    assertEquals("4242", assertInstanceOf(CardDeclinedException.class, declined).card());
    assertEquals("card 4242 declined", declined.getMessage());
    PaymentException fraud = assertThrows(PaymentException.class, () -> shop.pay("4242", 0.9));
    assertEquals(0.9, assertInstanceOf(FraudSuspectedException.class, fraud).score());
  }

  @Test
  void aSubclassTheMethodDoesNotDeclareArrivesAsTheDeclaredClassItExtends() {
    OutOfStockException e = assertThrows(OutOfStockException.class, () -> shop.backorder("A-1"));
    assertEquals(OutOfStockException.class, e.getClass());
    assertEquals("A-1", e.getSku());
    assertEquals(1, e.getRequested());
  }

  @Test
  void aServerStreamEndsWithTheExceptionAndItsFields() throws Exception {
    List<String> items = new CopyOnWriteArrayList<>();
    CompletableFuture<Throwable> failure = new CompletableFuture<>();
    shop.watch("C-3", 2)
        .subscribe(
            new Flow.Subscriber<String>() {
              @Override
              public void onSubscribe(Flow.Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
              }

              @Override
              public void onNext(String item) {
                items.add(item);
              }

              @Override
              public void onError(Throwable throwable) {
                failure.complete(throwable);
              }

              @Override
              public void onComplete() {
                failure.complete(null);
              }
            });
    OutOfStockException e =
        assertInstanceOf(OutOfStockException.class, failure.get(10, TimeUnit.SECONDS));
    assertEquals(List.of("C-3-0", "C-3-1"), items);
    assertEquals("C-3", e.getSku());
    assertEquals(3, e.getRequested());
    assertEquals(2, e.getAvailable());
  }

  // Refused at start-up.

  /** POJO-style: a no-argument constructor and a setter; no constructor takes its field. */
  static class LegacyException extends Exception {
    private static final long serialVersionUID = 1L;

    private String code;

    public LegacyException() {}

    public void setCode(String code) {
      this.code = code;
    }

    public String code() {
      return code;
    }
  }

  /** Its constructor takes one of its two fields. */
  static class PartialException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String sku;
    private final int requested;

    public PartialException(String sku) {
      this.sku = sku;
      this.requested = 1;
    }

    public String sku() {
      return sku;
    }

    public int requested() {
      return requested;
    }
  }

  @RPCXClient(name = "legacy")
  interface Legacy {
    void run() throws LegacyException;
  }

  @RPCXClient(name = "partial")
  interface Partial {
    void run(String sku) throws PartialException;
  }

  @RPCXServer(name = "partial")
  static final class PartialImpl implements Partial {
    @Override
    public void run(String sku) throws PartialException {
      throw new PartialException(sku);
    }
  }

  @Test
  void anExceptionWithoutAConstructorForItsFieldsIsRefusedAtStartUp() {
    IllegalArgumentException legacy =
        assertThrows(IllegalArgumentException.class, () -> rpcx.create(Legacy.class));
    assertEquals(
        Legacy.class.getName() + ".run() declares an exception RPCX cannot rebuild on the calling"
            + " side (a declared exception travels whole, its fields with it): unsupported type "
            + LegacyException.class.getName() + ": no constructor takes its fields (code) to"
            + " rebuild it with on the receiving side; add one whose parameters are named as the"
            + " fields (compiled with -parameters), or one of their types in declaration order"
            + " (String), either optionally with a String message first; or make the fields it"
            + " should not carry transient",
        legacy.getMessage());

    IllegalArgumentException partial =
        assertThrows(
            IllegalArgumentException.class,
            () -> RpcxServer.builder().port(0).service(new PartialImpl()).build());
    assertTrue(
        partial.getMessage().contains(
            "unsupported type " + PartialException.class.getName() + ": no constructor takes its"
                + " fields (sku, requested) to rebuild it with on the receiving side ((String sku)"
                + " leaves out requested); add one"),
        partial.getMessage());
  }

  // A peer that predates fields.

  @RPCXClient(name = "shop")
  interface OldShop {
    void buy(String sku) throws OutOfStockException;

    void find(long id) throws MessageOnlyException;
  }

  /** An exception an old server could already send: rebuilt by its (String) constructor. */
  public static final class MessageOnlyException extends Exception {
    private static final long serialVersionUID = 1L;

    public MessageOnlyException(String message) {
      super(message);
    }
  }

  @Test
  void aServerThatSendsNoFieldsGetsWhatItAlwaysGot() throws Exception {
    try (OldServer old = new OldServer();
        RpcxClient client = RpcxClient.builder().target("127.0.0.1", old.port()).build()) {
      OldShop shop = client.create(OldShop.class);
      old.answer(OutOfStockException.class.getName(), "out of stock: A-1");
      RemoteFailureException noStringConstructor =
          assertThrows(RemoteFailureException.class, () -> shop.buy("A-1"));
      assertEquals(OutOfStockException.class.getName(), noStringConstructor.remoteClassName());
      assertEquals(
          "shop/buy on 127.0.0.1:" + old.port() + " threw " + OutOfStockException.class.getName()
              + ": out of stock: A-1",
          noStringConstructor.getMessage());

      old.answer(MessageOnlyException.class.getName(), "no order 42");
      MessageOnlyException rebuilt = assertThrows(MessageOnlyException.class, () -> shop.find(42));
      assertEquals("no order 42", rebuilt.getMessage());
    }
  }

  /**
   * A server as RPCX's was before exceptions carried fields: it answers every request with a
   * REMOTE_FAILURE naming a class, with a message and no {@code exception_value}.
   */
  private static final class OldServer implements AutoCloseable {
    private final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private volatile String exceptionClass = "";
    private volatile String message = "";
    private final Thread thread = new Thread(this::serve, "old-server");

    OldServer() throws IOException {
      thread.setDaemon(true);
      thread.start();
    }

    int port() {
      return listener.getLocalPort();
    }

    void answer(String exceptionClass, String message) {
      this.exceptionClass = exceptionClass;
      this.message = message;
    }

    private void serve() {
      try (Socket socket = listener.accept()) {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        in.readFully(new byte[Preface.LENGTH]);
        out.write(Preface.bytes());
        while (true) {
          byte[] frame = new byte[in.readInt()];
          in.readFully(frame);
          if (frame[0] != 0x01) {
            continue; // not a request (a SCHEMA, a PING)
          }
          // A REQUEST: its request_id is field 1, a varint, written first.
          CodedInputStream request = CodedInputStream.newInstance(frame, 2, frame.length - 2);
          request.readTag();
          int requestId = request.readUInt32();
          ByteArrayProtoWriter reply = new ByteArrayProtoWriter();
          ReplyWriter.writeError(
              reply, requestId, StatusCode.REMOTE_FAILURE, message,
              ThrownException.named(exceptionClass));
          byte[] payload = reply.toByteArray();
          out.writeInt(payload.length + 2);
          out.write(new byte[] {0x02, 0x00});
          out.write(payload);
          out.flush();
        }
      } catch (IOException e) {
        // closed
      }
    }

    @Override
    public void close() throws IOException {
      listener.close();
    }
  }
}
