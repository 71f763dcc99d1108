package io.rpcx.server;

import java.util.concurrent.CompletionStage;

/**
 * Cross-cutting logic around every call a server runs: authentication, auditing, metrics. An
 * interceptor runs <em>before the call's arguments are decoded</em>, so it can refuse a call
 * cheaply. Interceptors run in the order they were added to the builder; the last {@link
 * Next#proceed()} decodes the arguments and runs the implementation.
 *
 * <p>Interceptors run where the method they intercept runs: on the server's executor for a method
 * that may block, and on the network thread that read the request for a method that never blocks
 * (asynchronous, or {@link io.rpcx.annotation.NonBlocking}), where every other call of that
 * thread's connections waits while they run. So an interceptor must not block either: one that
 * must wait (a token check calling another service, say) either does it asynchronously, returning
 * {@code check(token).thenCompose(ok -> next.proceed())}, so that nothing waits on the network
 * thread (the rest of the chain then runs on the thread completing the check), or has its class
 * annotated {@link io.rpcx.annotation.Blocking}: then every method of the server runs on the
 * executor.
 *
 * <pre>{@code
 * ServerInterceptor audit = (call, next) -> {
 *   long start = System.nanoTime();
 *   return next.proceed().whenComplete((result, failure) ->
 *       log.info("{}.{} took {} us", call.method().service(), call.method().method(), (System.nanoTime() - start) / 1000));
 * };
 * }</pre>
 *
 * <p>To refuse a call, throw an {@link io.rpcx.core.RpcxException} (for example {@link
 * io.rpcx.core.UnauthenticatedException}); the client receives that status and message. Any other
 * exception reaches the client as a remote failure. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface ServerInterceptor {

  /** Handles one call; returns the stage of its result, usually {@code next.proceed()}'s. */
  CompletionStage<Object> intercept(CallInfo call, Next next) throws Exception;

  /** The rest of the chain. */
  @FunctionalInterface
  interface Next {

    /** Runs the later interceptors, then decodes the arguments and calls the implementation. */
    CompletionStage<Object> proceed();
  }
}
