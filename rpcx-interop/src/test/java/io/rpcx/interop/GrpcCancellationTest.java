package io.rpcx.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.util.concurrent.ListenableFuture;
import interop.InteropGrpc;
import interop.InteropOuterClass.AwaitCancelReply;
import interop.InteropOuterClass.AwaitCancelRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A gRPC client that gives up on a unary call cancels it on the server, as an RPCX client's cancel
 * does: its RST_STREAM, its deadline and its connection's close each cancel the call's {@code
 * RpcxContext}, which the implementation hears.
 */
@Timeout(60)
class GrpcCancellationTest {

  private static AwaitCancelRequest waitingUpTo(long millis) {
    return AwaitCancelRequest.newBuilder().setMillis(millis).build();
  }

  @Test
  void aCallTheClientCancelsIsCancelledOnTheServerSayingSo() throws Exception {
    InteropServiceImpl implementation = new InteropServiceImpl();
    try (GrpcPeer peer = GrpcPeer.start(InteropServer.builder(0, implementation))) {
      ListenableFuture<AwaitCancelReply> call =
          InteropGrpc.newFutureStub(peer.channel).awaitCancel(waitingUpTo(30_000));
      assertTrue(implementation.awaitListening(), "the implementation runs");
      call.cancel(true);
      assertEquals(
          "the client cancelled the call (RST_STREAM CANCEL)", implementation.nextCancellation());
    }
  }

  @Test
  void aCallPastItsDeadlineIsCancelledOnTheServer() throws Exception {
    InteropServiceImpl implementation = new InteropServiceImpl();
    try (GrpcPeer peer = GrpcPeer.start(InteropServer.builder(0, implementation))) {
      StatusRuntimeException late =
          assertThrows(
              StatusRuntimeException.class,
              () ->
                  InteropGrpc.newBlockingStub(peer.channel)
                      .withDeadlineAfter(300, TimeUnit.MILLISECONDS)
                      .awaitCancel(waitingUpTo(30_000)));
      assertEquals(Status.Code.DEADLINE_EXCEEDED, late.getStatus().getCode());
      assertNotNull(implementation.nextCancellation(), "the implementation heard no cancellation");
    }
  }

  @Test
  void theCallsOfAConnectionThatClosesAreCancelled() throws Exception {
    InteropServiceImpl implementation = new InteropServiceImpl();
    try (GrpcPeer peer = GrpcPeer.start(InteropServer.builder(0, implementation))) {
      InteropGrpc.newFutureStub(peer.channel).awaitCancel(waitingUpTo(30_000));
      assertTrue(implementation.awaitListening(), "the implementation runs");
      peer.channel.shutdownNow();
      String reason = implementation.nextCancellation();
      assertNotNull(reason, "the implementation heard no cancellation");
      assertTrue(
          reason.equals("the client's connection closed") || reason.contains("RST_STREAM"),
          reason);
    }
  }
}
