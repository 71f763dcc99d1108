package io.rpcx.client.internal.call;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rpcx.core.CallTimeoutException;
import io.rpcx.core.internal.codec.ByteArrayProtoWriter;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.model.StandardCodecs;
import io.rpcx.core.internal.protocol.ByteBufferPayload;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ReplyEnvelope;
import io.rpcx.core.internal.protocol.ReplyWriter;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A call never completes with a value later than its deadline: a reply that arrives after it
 * times the call out, however late the timeout itself would have fired.
 */
class DeadlineTest {
  private final AtomicInteger releases = new AtomicInteger();

  @Test
  void aReplyBeforeTheDeadlineCompletesTheCallWithItsValue() throws Exception {
    CallFuture future = new CallFuture("deadline/test");
    AsyncCall call = asyncCall(System.nanoTime() + TimeUnit.SECONDS.toNanos(10), future);
    deliver(call, "on time");
    assertEquals("on time", future.get(1, TimeUnit.SECONDS));
    assertEquals(1, releases.get());
  }

  @Test
  void anAsynchronousCallWhoseReplyComesAfterItsDeadlineTimesOut() {
    CallFuture future = new CallFuture("deadline/test");
    AsyncCall call = asyncCall(System.nanoTime() - 1, future);
    deliver(call, "too late");
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> future.get(1, TimeUnit.SECONDS));
    assertInstanceOf(CallTimeoutException.class, e.getCause());
    assertEquals("carts/load timed out after 1000 ms waiting for test", e.getCause().getMessage());
    assertEquals(1, releases.get(), "the late reply's frame is released");
  }

  @Test
  void aBlockingCallWhoseReplyComesAfterItsDeadlineTimesOut() {
    BlockingCall call =
        new BlockingCall(
            TestCalls.method("load"),
            TestCalls.invocation(new Object[] {"c"}, System.nanoTime() - 1),
            1,
            null);
    deliver(call, "too late");
    CallTimeoutException e = assertThrows(CallTimeoutException.class, call::await);
    assertEquals("carts/load timed out after 1000 ms waiting for test", e.getMessage());
    assertEquals(1, releases.get());
  }

  private static AsyncCall asyncCall(long deadlineNanos, CallFuture future) {
    return new AsyncCall(
        TestCalls.method("load"), TestCalls.invocation(new Object[] {"c"}, deadlineNanos), 1,
        null, future,
        new Completions(Runnable::run));
  }

  /** Delivers a reply carrying {@code value} to {@code call}, counting its payload's releases. */
  @SuppressWarnings("unchecked")
  private void deliver(PendingCall call, String value) {
    try {
      ByteArrayProtoWriter out = new ByteArrayProtoWriter();
      ReplyWriter.writeValue(
          out, 1, (ValueCodec<Object>) StandardCodecs.registry().codecFor(String.class), value, 0);
      ByteBufferPayload bytes = ByteBufferPayload.of(out.toByteArray());
      Payload payload =
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
          };
      call.reply(ReplyEnvelope.parse(payload), payload);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
