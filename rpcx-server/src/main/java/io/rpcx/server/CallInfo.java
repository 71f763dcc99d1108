package io.rpcx.server;

import io.rpcx.core.MethodDescriptor;
import io.rpcx.core.RpcxContext;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * What a {@link ServerInterceptor} knows about a call before its arguments are decoded. Valid for
 * the duration of the call; implementations are not thread-safe beyond that.
 */
public interface CallInfo {

  /**
   * The method called: its published names, its shape, and the method of the service interface
   * that will run.
   */
  MethodDescriptor method();

  /** The call's metadata (credentials, for example); never logged by RPCX. */
  Map<String, String> metadata();

  /** The client's address. */
  String remoteAddress();

  /**
   * The time left before the client's timeout for the call runs out (negative once it has), or
   * empty if the client set none. RPCX calls made while serving the call end by then.
   */
  Optional<Duration> timeRemaining();

  /**
   * The call's context, which is current while the interceptors and the implementation run. An
   * interceptor can run the rest of the chain in a context with more values: {@code try (var
   * scope = call.context().with(KEY, value).attach()) { return next.proceed(); }}.
   */
  RpcxContext context();

  /**
   * The stream messages sent so far to the client (a method returning {@code Flow.Publisher} or
   * {@code Stream}; docs/STREAMING.md), all of them once the call has ended; 0 for a call whose
   * result is not a stream.
   */
  default long streamMessagesSent() {
    return 0;
  }

  /**
   * The stream messages received so far from the client (a method taking a {@code
   * Flow.Publisher} argument; docs/STREAMING.md), all of them once the call has ended; 0 for a
   * call without a stream argument.
   */
  default long streamMessagesReceived() {
    return 0;
  }
}
