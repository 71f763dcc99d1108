package io.rpcx.client.internal.call;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.core.RpcxException;
import io.rpcx.core.internal.grpc.GrpcPaths;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.model.ServiceModel;
import io.rpcx.core.internal.model.ServiceModels;
import io.rpcx.core.internal.model.StandardCodecs;
import io.rpcx.core.internal.protocol.ByteBufferPayload;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ProtocolException;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import io.rpcx.core.internal.protocol.SchemaFrames;
import io.rpcx.internal.testing.JazzerOutput;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;

/**
 * Whatever a server sends as SCHEMA and REPLY frames, the client either returns a value of the
 * declared type or throws a typed RpcxException, and releases the frame exactly once. The
 * regression inputs replay in every build; {@code JAZZER_FUZZ=1} fuzzes for longer.
 */
class ReplyHandlingFuzzTest {
  @BeforeAll
  static void quietJazzer() {
    JazzerOutput.quiet(); // before its agent is installed, which notes every class it instruments
  }


  /** A result type with nested POJOs, collections and JDK values. */
  public static final class Order {
    String id;
    long amount;
    List<Line> lines;
    Map<String, java.math.BigDecimal> prices;
    java.time.Instant created;
    Order next;
  }

  /** A record inside the POJO. */
  public record Line(String sku, int quantity, double price) {}

  @RPCXClient(name = "orders")
  interface Orders {
    Order load(long id);

    List<String> names();
  }

  private static final ServiceModel MODEL =
      ServiceModels.forClient(Orders.class, StandardCodecs.registry());

  private static final CallChannel NOWHERE =
      new CallChannel() {
        @Override
        public void send(PendingCall call) {
          throw new IllegalStateException("not sent in this test");
        }

        @Override
        public String address() {
          return "fuzzer:0";
        }
      };

  private static final RetryPolicy RETRIES = new RetryPolicy(1, new RetryBudget(0, 0));

  private static final List<ClientMethod> METHODS =
      List.of(
          new ClientMethod(
              MODEL.method("load"),
              NOWHERE,
              1000,
              new Completions(Runnable::run),
              16,
              Map.of(),
              RETRIES,
              List.of(),
              1024,
              4L << 20,
              GrpcPaths.of(MODEL)),
          new ClientMethod(
              MODEL.method("names"),
              NOWHERE,
              1000,
              new Completions(Runnable::run),
              16,
              Map.of(),
              RETRIES,
              List.of(),
              1024,
              4L << 20,
              GrpcPaths.of(MODEL)));

  @FuzzTest(maxDuration = "10m")
  void aReplyBecomesAValueOrATypedFailure(FuzzedDataProvider data) throws Throwable {
    PeerSchemas schemas = new PeerSchemas();
    ClientMethod method = METHODS.get(data.consumeInt(0, METHODS.size() - 1));
    byte[] schema = data.consumeBytes(data.consumeInt(0, 512));
    ByteBufferPayload reply = ByteBufferPayload.of(data.consumeRemainingAsBytes());
    if (schema.length > 0) {
      try {
        SchemaFrames.read(ByteBufferPayload.of(schema), schemas);
      } catch (ProtocolException e) {
        return; // the connection would close: no call is decoded with this schema
      }
    }
    ReplyEnvelope envelope;
    try {
      envelope = ReplyEnvelope.parse(reply);
    } catch (ProtocolException e) {
      return; // the connection would close, failing its calls with an InternalErrorException
    }
    AtomicInteger releases = new AtomicInteger();
    Payload payload =
        new Payload() {
          @Override
          public int length() {
            return reply.length();
          }

          @Override
          public com.google.protobuf.CodedInputStream input(int offset, int length) {
            return reply.input(offset, length);
          }

          @Override
          public boolean regionEquals(int offset, byte[] expected) {
            return reply.regionEquals(offset, expected);
          }

          @Override
          public byte[] bytes(int offset, int length) {
            return reply.bytes(offset, length);
          }

          @Override
          public void release() {
            releases.incrementAndGet();
          }
        };
    try {
      method.decode(envelope, payload, schemas, "fuzzer:0");
    } catch (RpcxException expected) {
      // a typed failure is a fine answer to a hostile reply
    }
    assertEquals(1, releases.get(), "releases of the reply frame");
  }
}
