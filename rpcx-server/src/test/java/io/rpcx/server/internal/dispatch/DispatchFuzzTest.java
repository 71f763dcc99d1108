package io.rpcx.server.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.protocol.ByteBufferPayload;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.internal.testing.JazzerOutput;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;

/**
 * Any request payload gets exactly one outcome — a reply (a value or an error) or the connection
 * closed for a protocol error — and its buffer is released exactly once; nothing is thrown. The
 * regression inputs replay in every build; {@code JAZZER_FUZZ=1} fuzzes for longer.
 */
class DispatchFuzzTest {
  @BeforeAll
  static void quietJazzer() {
    JazzerOutput.quiet(); // before its agent is installed, which notes every class it instruments
  }


  /** A service interface with POJO, collection and map parameters. */
  public interface Shapes {
    String echo(String text);

    Order order(Order order, int count);

    Map<String, List<Long>> nested(Map<String, List<Long>> value, Optional<String> note);
  }

  /** A POJO with a nested one. */
  public static final class Order {
    String id;
    long amount;
    List<Item> items;
    Order next;
  }

  /** A record inside the POJO. */
  public record Item(String sku, int quantity) {}

  /** Returns what it gets. */
  @RPCXServer(name = "shapes")
  public static final class ShapesImpl implements Shapes {
    public String echo(String text) {
      return text;
    }

    public Order order(Order order, int count) {
      return order;
    }

    public Map<String, List<Long>> nested(Map<String, List<Long>> value, Optional<String> note) {
      return value;
    }
  }

  private static final RequestDispatcher DISPATCHER =
      TestDispatchers.serving(new ShapesImpl(), null);

  @FuzzTest(maxDuration = "10m")
  void everyRequestGetsExactlyOneOutcome(byte[] request) {
    RecordingConnection connection = new RecordingConnection();
    AtomicInteger releases = new AtomicInteger();
    ByteBufferPayload bytes = ByteBufferPayload.of(request);
    DISPATCHER.onRequest(
        connection,
        new Payload() {
          @Override
          public int length() {
            return bytes.length();
          }

          @Override
          public com.google.protobuf.CodedInputStream input(int offset, int length) {
            return bytes.input(offset, length);
          }

          @Override
          public boolean regionEquals(int offset, byte[] expected) {
            return bytes.regionEquals(offset, expected);
          }

          @Override
          public byte[] bytes(int offset, int length) {
            return bytes.bytes(offset, length);
          }

          @Override
          public void release() {
            releases.incrementAndGet();
          }
        });
    assertEquals(1, connection.outcomes.get(), "outcomes");
    // An error the peer's bytes cause is never reported as the implementation's failure.
    assertFalse(connection.events.contains("error " + StatusCode.OK), connection.events::toString);
    assertFalse(
        connection.events.contains("error " + StatusCode.REMOTE_FAILURE),
        connection.events::toString);
    assertEquals(1, releases.get(), "releases of the payload");
  }
}
