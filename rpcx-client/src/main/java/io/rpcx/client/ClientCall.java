package io.rpcx.client;

import io.rpcx.core.MethodDescriptor;
import io.rpcx.core.RpcxContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One attempt of a call, as a {@link ClientInterceptor} sees it. Valid until the attempt ends;
 * {@link #putMetadata} only in {@link ClientInterceptor#onStart}.
 */
public interface ClientCall {

  /**
   * The method called: its published names, its shape, and the method of the client interface
   * (none for a {@link RawCall}).
   */
  MethodDescriptor method();

  /** The attempt number, from 1; a retry is attempt 2 or more. */
  int attempt();

  /** {@code host:port} of the server this attempt goes to, or {@code null} if none was chosen. */
  String server();

  /**
   * The time left before the call's deadline: its timeout, or what was left of the deadline of the
   * call being served if that comes first. Negative once it has passed.
   */
  Duration timeRemaining();

  /** The call's arguments, read only: for a {@link RawCall}, their value messages ({@code byte[]}). */
  List<Object> arguments();

  /** The metadata this attempt carries: the client's, and what interceptors added. */
  Map<String, String> metadata();

  /**
   * Adds (or replaces) one metadata entry of this attempt.
   *
   * @throws IllegalStateException if the attempt was already sent
   */
  void putMetadata(String key, String value);

  /** The context the call was made in: the call being served, or {@link RpcxContext#ROOT}. */
  RpcxContext context();

  /**
   * The stream messages received so far from the server (a method returning {@code
   * Flow.Publisher} or {@code Stream}; docs/STREAMING.md), all of them once the call has ended; 0
   * for a call whose result is not a stream.
   */
  default long streamMessagesReceived() {
    return 0;
  }

  /**
   * The stream messages sent so far to the server (a method taking a {@code Flow.Publisher}
   * argument; docs/STREAMING.md), all of them once the call has ended; 0 for a call without a
   * stream argument.
   */
  default long streamMessagesSent() {
    return 0;
  }

  /** Keeps {@code value} with this attempt, for {@link ClientInterceptor#onEnd} to find. */
  <T> void attach(RpcxContext.Key<T> key, T value);

  /** The value kept with this attempt under {@code key}, or {@code null}. */
  <T> T attachment(RpcxContext.Key<T> key);
}
