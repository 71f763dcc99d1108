package io.rpcx.server.internal.transport;

import io.netty.buffer.ByteBuf;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.transport.GrpcFraming;
import io.rpcx.server.internal.dispatch.OpenStream;
import io.rpcx.server.internal.grpc.GrpcReflection;
import io.rpcx.server.internal.grpc.GrpcRoutes;
import java.util.ArrayDeque;
import java.util.Map;

/**
 * One HTTP/2 stream of the gRPC side: the call it carries from its headers to its end. Its request
 * messages come out of its {@link GrpcFraming.Deframer}; a unary or server-stream call is
 * dispatched with its one message once the client half-closes, a client or bidirectional stream
 * with its first message (or at once, when its method takes only the stream), and every later
 * message is an element handed to the call as its credit allows, the bytes of those it holds
 * given back to HTTP/2's flow control only when delivered. Event loop only.
 */
final class GrpcServerStream {
  /** What the stream carries. */
  enum Kind {
    /** A call of a published method. */
    CALL,
    /** {@code grpc.health.v1.Health/Check}. */
    HEALTH_CHECK,
    /** {@code grpc.health.v1.Health/Watch}. */
    HEALTH_WATCH,
    /** {@code grpc.reflection.v1(alpha).ServerReflection/ServerReflectionInfo}. */
    REFLECTION
  }

  final int id;
  final Kind kind;
  final GrpcRoutes.Route route;
  final MethodModel model;
  final Map<String, String> metadata;
  final int timeoutMillis;
  final long receivedNanos;
  final GrpcFraming.Deframer deframer;
  /** The message of a call not yet dispatched (its arguments), or null. */
  ByteBuf firstMessage;
  /** The call was handed to the dispatcher. */
  boolean dispatched;
  /** The client sent END_STREAM. */
  boolean halfClosed;
  /** The call's streams, once the dispatcher registered them (client or bidirectional streams). */
  OpenStream open;
  /** Elements received and not yet delivered, each with the bytes it took of the window. */
  final ArrayDeque<Held> held = new ArrayDeque<>();
  /** Elements the call may take now: its receiver's credit not yet used. */
  long credit;
  /** The response headers were written. */
  boolean headersSent;
  /** The response ended (trailers written) or the stream was reset: nothing more is written. */
  boolean ended;
  /** Reflection's answers on this stream, or null. */
  GrpcReflection.Exchange reflection;
  /** Stops a health watch, or null. */
  Runnable unwatch;

  GrpcServerStream(
      int id,
      Kind kind,
      GrpcRoutes.Route route,
      MethodModel model,
      Map<String, String> metadata,
      int timeoutMillis,
      long receivedNanos,
      GrpcFraming.Deframer deframer) {
    this.id = id;
    this.kind = kind;
    this.route = route;
    this.model = model;
    this.metadata = metadata;
    this.timeoutMillis = timeoutMillis;
    this.receivedNanos = receivedNanos;
    this.deframer = deframer;
  }

  /** An element held for the call, and the flow-control bytes to give back when it is delivered. */
  record Held(ByteBuf message, int windowBytes) {}

  /** Whether the call streams from the client: its messages after the first are elements. */
  boolean clientStreams() {
    return model != null && model.descriptor().shape().clientStreams();
  }

  /** Lets go of what it holds: the stream is closed. */
  void release() {
    deframer.release();
    if (firstMessage != null) {
      firstMessage.release();
      firstMessage = null;
    }
    Held element;
    while ((element = held.poll()) != null) {
      element.message().release();
    }
    if (unwatch != null) {
      unwatch.run();
      unwatch = null;
    }
  }
}
