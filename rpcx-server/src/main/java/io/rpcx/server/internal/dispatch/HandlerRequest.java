package io.rpcx.server.internal.dispatch;

import com.google.protobuf.CodedInputStream;
import io.rpcx.core.BadRequestException;
import io.rpcx.core.internal.call.CallRequest;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.grpc.GrpcMessages;
import io.rpcx.core.internal.model.MethodModel;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A call made through {@code HttpExchange.call}, as the dispatcher reads it: its names, metadata
 * and timeout, and a request message laid out as gRPC's ({@link GrpcMessages}: field {@code i +
 * 1} holds argument {@code i}) that the caller makes only when the call runs (on its worker, or on
 * the network thread for a method that never blocks), once the interceptors have let it through.
 */
final class HandlerRequest implements CallRequest {
  /** An HTTP call has no id of its own: it is the only call of its {@link HandlerCall}. */
  static final int ID = 1;

  private final String service;
  private final String method;
  private final Map<String, String> metadata;
  private final int timeoutMillis;
  private final Supplier<byte[]> message;

  HandlerRequest(
      String service,
      String method,
      Map<String, String> metadata,
      int timeoutMillis,
      Supplier<byte[]> message) {
    this.service = service;
    this.method = method;
    this.metadata = metadata;
    this.timeoutMillis = timeoutMillis;
    this.message = message;
  }

  @Override
  public int requestId() {
    return ID;
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

  /** None: a stream's elements are sent as the caller's subscriber requests them. */
  @Override
  public int initialCredit() {
    return 0;
  }

  @Override
  public Object[] arguments(MethodModel model, int maxDepth, PeerSchemas schemas)
      throws CodecException {
    byte[] bytes;
    try {
      bytes = message.get();
    } catch (BadRequestException e) {
      throw new CodecException(String.valueOf(e.getMessage()), e);
    } catch (RuntimeException e) {
      throw new CodecException("cannot read the arguments of " + model.displayName() + ": " + e, e);
    }
    return GrpcMessages.readArguments(
        model, CodedInputStream.newInstance(bytes), new DecodeContext(maxDepth, schemas));
  }

  @Override
  public void release() {
    // nothing held: the caller makes the message when asked
  }
}
