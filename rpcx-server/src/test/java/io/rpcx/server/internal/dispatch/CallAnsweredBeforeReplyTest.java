package io.rpcx.server.internal.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.core.internal.codec.ByteArrayProtoWriter;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.model.StandardCodecs;
import io.rpcx.core.internal.protocol.ByteBufferPayload;
import io.rpcx.core.internal.protocol.RequestWriter;
import io.rpcx.internal.testing.LogCapture;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A call gives its place under the connection's limit of concurrent calls back before its last
 * frame is queued, whatever ends it: a client that starts its next call the moment it reads the
 * reply must not be refused for a call the server has already answered. The connection still
 * counts the call as unfinished until that frame is queued.
 */
@SuppressWarnings({"rawtypes"}) // arrays of codecs of generic types
class CallAnsweredBeforeReplyTest {

  /** Echoes, or fails. */
  public interface Greeter {
    String echo(String text);

    String fail(String text);
  }

  @RPCXServer(name = "greeter")
  public static final class GreeterImpl implements Greeter {
    public String echo(String text) {
      return text;
    }

    public String fail(String text) {
      throw new IllegalStateException("failed on purpose: " + text);
    }
  }

  @SuppressWarnings("unchecked")
  private static final ValueCodec<Object> STRING =
      (ValueCodec<Object>) StandardCodecs.registry().codecFor(String.class);

  private static RequestDispatcher dispatcher(Executor executor) {
    return TestDispatchers.serving(new GreeterImpl(), executor);
  }

  /** A request for greeter/{@code method}("hi"), with a timeout of {@code timeoutMillis} (0: none). */
  private static ByteBufferPayload request(String method, int timeoutMillis) throws Exception {
    ByteArrayProtoWriter out = new ByteArrayProtoWriter();
    @SuppressWarnings("unchecked")
    ValueCodec<Object>[] codecs = new ValueCodec[] {STRING};
    RequestWriter.write(
        out,
        7,
        RequestWriter.nameFields("greeter", method),
        new byte[][] {RequestWriter.typeField("string")},
        codecs,
        new Object[] {"hi"},
        timeoutMillis,
        Map.of(),
        null);
    return ByteBufferPayload.of(out.toByteArray());
  }

  @Test
  void aReplyIsQueuedOnlyAfterItsCallGaveItsPlaceBack() throws Exception {
    RecordingConnection connection = new RecordingConnection();
    dispatcher(null).onRequest(connection, request("echo", 0));
    assertEquals(List.of("start", "answered", "reply", "finished"), connection.events);
  }

  @Test
  void anImplementationFailureGivesThePlaceBackBeforeItsErrorReply() throws Exception {
    RecordingConnection connection = new RecordingConnection();
    dispatcher(null).onRequest(connection, request("fail", 0));
    assertEquals(
        List.of("start", "answered", "error REMOTE_FAILURE", "finished"), connection.events);
  }

  @Test
  void aCallTheExecutorRefusesGivesThePlaceBackBeforeItsErrorReply() throws Exception {
    RecordingConnection connection = new RecordingConnection();
    Executor full =
        call -> {
          throw new RejectedExecutionException("all 1 worker threads are busy");
        };
    try (LogCapture logs = LogCapture.of(RequestDispatcher.class)) {
      dispatcher(full).onRequest(connection, request("echo", 0));
      logs.assertLines(
          Level.TRACE, "WARN Rejected greeter/echo from test peer: all 1 worker threads are busy");
    }
    assertEquals(
        List.of("start", "answered", "error RESOURCE_EXHAUSTED", "finished"), connection.events);
  }

  @Test
  void aCallDroppedAfterItsCallersTimeoutGivesThePlaceBackWithNoReply() throws Exception {
    RecordingConnection connection = new RecordingConnection();
    List<Runnable> queued = new ArrayList<>();
    dispatcher(queued::add).onRequest(connection, request("echo", 1));
    long received = System.nanoTime();
    while (System.nanoTime() - received < TimeUnit.MILLISECONDS.toNanos(2)) {
      Thread.onSpinWait(); // the caller's 1 ms passes while the call waits for a worker
    }
    queued.get(0).run();
    assertEquals(List.of("start", "answered", "finished"), connection.events);
  }
}
