package io.rpcx.client;

/**
 * Cross-cutting logic around every attempt of every call a client makes: metrics, tracing, logging,
 * credentials that change. Interceptors are set on the builder and run in that order before an
 * attempt is sent ({@link #onStart}), and in the reverse order when it ends ({@link #onEnd}). A
 * retried call passes through them once per attempt.
 *
 * <pre>{@code
 * ClientInterceptor token = new ClientInterceptor() {
 *   @Override
 *   public void onStart(ClientCall call) {
 *     call.putMetadata("authorization", "Bearer " + tokens.current());
 *   }
 * };
 * RpcxClient client = RpcxClient.builder().target("orders", 9000).intercept(token).build();
 * }</pre>
 *
 * <p>Unlike a server interceptor, a client interceptor does not wrap the call: a call is
 * multiplexed with others on a connection and may end on a network thread, so an interceptor is
 * told when an attempt starts and when it ends, and keeps what it needs in between with {@link
 * ClientCall#attach}. Implementations must be thread-safe and quick; {@link #onEnd} must not block.
 */
public interface ClientInterceptor {

  /**
   * An attempt is about to be encoded and sent to {@link ClientCall#server()}, on the thread that
   * sends it (the caller's, or a callback thread for an asynchronous call retried). Metadata added
   * here goes with this attempt only. To fail the attempt without sending it, throw an {@link
   * io.rpcx.core.RpcxException} (for example an {@link io.rpcx.core.UnauthenticatedException}); any
   * other exception fails it as an internal error naming this interceptor.
   *
   * <p>An attempt that fails before any server could be chosen (none is known, say) is started just
   * before it ends, with no server; what this method throws then is logged and ignored.
   */
  default void onStart(ClientCall call) {}

  /**
   * The attempt ended, with {@code result}. Runs on the thread that ended it, which may be a
   * network thread: do not block. What this method throws is logged and ignored.
   */
  default void onEnd(ClientCall call, CallResult result) {}
}
