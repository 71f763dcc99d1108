package io.rpcx.server.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.ByteArrayProtoWriter;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.model.ServiceModels;
import io.rpcx.core.internal.model.StandardCodecs;
import io.rpcx.core.internal.protocol.ByteBufferPayload;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ReplyWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Any request payload gets exactly one outcome — a reply (a value or an error) or the connection
 * closed for a protocol error — and its buffer is released exactly once; nothing is thrown. The
 * regression inputs replay in every build; {@code JAZZER_FUZZ=1} fuzzes for longer.
 */
class DispatchFuzzTest {

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
      new RequestDispatcher(
          PublishedServices.of(
              List.of(ServiceModels.forServer(ShapesImpl.class, StandardCodecs.registry())),
              List.of(new ShapesImpl())),
          null,
          new CallTracker(),
          1024,
          16,
          List.of(),
          new ExceptionLog(null, false, null, false),
          List.of());

  /** Records what the dispatcher did with one request. */
  private static final class RecordingConnection implements ServerConnection {
    final AtomicInteger outcomes = new AtomicInteger();

    @Override
    public void sendValue(int requestId, ServerMethod method, Object value) throws CodecException {
      // Encoding the result must work: it went through the same codecs on the way in.
      try {
        ReplyWriter.writeValue(
            new ByteArrayProtoWriter(), requestId, method.model().resultCodec(), value, 0);
      } catch (java.io.IOException e) {
        throw new AssertionError("a decoded value could not be encoded again", e);
      }
      outcomes.incrementAndGet();
    }

    @Override
    public void sendError(int requestId, StatusCode code, String message, String exceptionClass) {
      assertTrue(code != StatusCode.OK && code != StatusCode.REMOTE_FAILURE, code + ": " + message);
      outcomes.incrementAndGet();
    }

    @Override
    public StreamOutput streamOutput(int streamId, ServerMethod method) {
      throw new AssertionError("the fuzzed services have no stream");
    }

    @Override
    public void streamOpened(ServerStream stream) {
      throw new AssertionError("the fuzzed services have no stream");
    }

    @Override
    public void streamEnded(ServerStream stream) {}

    @Override
    public boolean isStreamOpen(int streamId) {
      throw new AssertionError("the fuzzed services have no stream");
    }

    @Override
    public void sendStreamCredit(int streamId, int messages) {
      throw new AssertionError("the fuzzed services have no stream");
    }

    @Override
    public void inboundOpened(InboundStream stream) {
      throw new AssertionError("the fuzzed services have no stream");
    }

    @Override
    public void inboundEnded(InboundStream stream) {}

    @Override
    public java.util.concurrent.Future<?> schedule(Runnable task, long delayNanos) {
      throw new AssertionError("the fuzzed services have no stream");
    }

    @Override
    public PeerSchemas peerSchemas() {
      return null;
    }

    @Override
    public String drainReason() {
      return null;
    }

    @Override
    public boolean tryStartCall() {
      return true;
    }

    @Override
    public void callFinished() {}

    @Override
    public int maxConcurrentCalls() {
      return Integer.MAX_VALUE;
    }

    @Override
    public void reset() {
      outcomes.incrementAndGet();
    }

    @Override
    public String remoteAddress() {
      return "fuzzer";
    }

    @Override
    public void closeForProtocolError(StatusCode code, String problem) {
      outcomes.incrementAndGet();
    }
  }

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
    assertEquals(1, releases.get(), "releases of the payload");
  }
}
