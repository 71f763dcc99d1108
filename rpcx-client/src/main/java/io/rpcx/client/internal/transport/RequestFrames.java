package io.rpcx.client.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.core.BadRequestException;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.protocol.FrameType;
import io.rpcx.core.internal.protocol.RequestWriter;
import io.rpcx.core.internal.transport.FrameOverLimitException;
import io.rpcx.core.internal.transport.Frames;
import java.io.IOException;

/**
 * The layout of a call's {@code REQUEST} frame (docs/PROTOCOL.md, section 3): what the call
 * exposes (its id, method, arguments, the timeout and metadata it sends, a server stream's initial
 * credit), encoded on the sending thread into one pooled buffer sized by the method's last request.
 */
final class RequestFrames {
  private RequestFrames() {}

  /**
   * The request frame of {@code call}, which its connection has given its id.
   *
   * @throws ResourceExhaustedException if it is over {@code maxFrameSize}
   * @throws BadRequestException if an argument cannot be encoded
   */
  static ByteBuf encode(ByteBufAllocator alloc, PendingCall call, int maxFrameSize) {
    MethodModel model = call.model();
    try {
      return Frames.encode(
          alloc,
          FrameType.REQUEST,
          call.sizeHints().request(),
          maxFrameSize,
          out -> {
            RequestWriter.write(
                out,
                call.requestId(),
                model.nameFields(),
                model.parameterTypeFields(),
                model.parameterCodecs(),
                call.args(),
                call.sentTimeoutMillis(),
                call.sentMetadata(),
                call.sizeHints().arguments());
            RequestWriter.writeInitialCredit(out, call.initialCredit());
          });
    } catch (FrameOverLimitException e) {
      throw new ResourceExhaustedException(
          "the request of " + model.displayName() + " is over the frame limit of "
              + maxFrameSize + " bytes");
    } catch (IOException | RuntimeException e) {
      throw new BadRequestException(
          "cannot encode the arguments of " + model.displayName() + ": " + e.getMessage(), e);
    }
  }
}
