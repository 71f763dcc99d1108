package io.rpcx.core.internal.grpc;

import com.google.protobuf.CodedInputStream;
import io.rpcx.core.internal.call.CallRequest;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.protocol.Payload;
import java.util.Map;

/**
 * A call received over gRPC: its names (from the request's {@code :path}), its metadata (the
 * request headers), its deadline ({@code grpc-timeout}), and the request message holding its
 * arguments, decoded by {@link GrpcMessages}; a client stream whose method takes only the stream
 * has no such message. Its id is the HTTP/2 stream's.
 */
public final class GrpcRequest implements CallRequest {
  /**
   * The messages a server stream may send before the transport has seen any written: HTTP/2's own
   * flow control then paces the stream, as its writes complete.
   */
  public static final int INITIAL_CREDIT = 16;

  private static final byte[] NO_BYTES = new byte[0];

  private final int streamId;
  private final String service;
  private final String method;
  private final Map<String, String> metadata;
  private final int timeoutMillis;
  private Payload message;

  public GrpcRequest(
      int streamId,
      String service,
      String method,
      Map<String, String> metadata,
      int timeoutMillis,
      Payload message) {
    this.streamId = streamId;
    this.service = service;
    this.method = method;
    this.metadata = metadata;
    this.timeoutMillis = timeoutMillis;
    this.message = message;
  }

  @Override
  public int requestId() {
    return streamId;
  }

  @Override
  public String service() {
    return service;
  }

  @Override
  public String method() {
    return method;
  }

  @Override
  public Map<String, String> metadata() {
    return metadata;
  }

  @Override
  public int timeoutMillis() {
    return timeoutMillis;
  }

  @Override
  public int initialCredit() {
    return INITIAL_CREDIT;
  }

  @Override
  public Object[] arguments(MethodModel model, int maxDepth, PeerSchemas schemas)
      throws CodecException {
    Payload held = message;
    DecodeContext context = new DecodeContext(maxDepth, schemas);
    if (held == null) {
      return GrpcMessages.readArguments(model, CodedInputStream.newInstance(NO_BYTES), context);
    }
    return held.readValue(
        0,
        held.length(),
        model.onlyBulkBytesParameters(),
        in -> GrpcMessages.readArguments(model, in, context));
  }

  @Override
  public void release() {
    Payload held = message;
    if (held != null) {
      message = null;
      held.release();
    }
  }
}
