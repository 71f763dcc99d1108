package io.rpcx.core.internal.call;

import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.model.MethodModel;
import java.util.Map;

/**
 * A received call, as a wire protocol hands it to the server's one dispatcher: RPCX's own {@code
 * REQUEST} frame ({@link RequestEnvelope}) or a gRPC stream's headers and first message. The
 * dispatcher finds the method by the names before anything is decoded; the arguments are decoded
 * later, on the call's worker. Holds its received bytes until {@link #release()}.
 */
public interface CallRequest {

  /** The id that the call's replies and stream frames carry: a request id, an HTTP/2 stream id. */
  int requestId();

  /** The published service name asked for. */
  String service();

  /** The published method name asked for. */
  String method();

  /** The call's metadata (credentials, trace context); empty if none. Read only. */
  Map<String, String> metadata();

  /** Milliseconds the caller waits, counted from sending; 0 for no timeout. */
  int timeoutMillis();

  /**
   * The messages the server may send at once on a server stream (unsigned; 0 when absent), before
   * the client grants more.
   */
  int initialCredit();

  /**
   * Decodes the arguments of {@code model}'s method; a stream argument's place is left null (its
   * elements come apart).
   *
   * @throws CodecException naming the argument, if they do not fit the method
   */
  Object[] arguments(MethodModel model, int maxDepth, PeerSchemas schemas) throws CodecException;

  /** Lets go of the received bytes; once, after the arguments are decoded or not needed. */
  void release();
}
