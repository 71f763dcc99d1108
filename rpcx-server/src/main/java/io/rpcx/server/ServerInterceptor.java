package io.rpcx.server;

import java.util.concurrent.CompletionStage;

/**
 * Cross-cutting logic around every call a server runs: authentication, auditing, metrics. An
 * interceptor runs on the server's executor <em>before the call's arguments are decoded</em>, so
 * it can refuse a call cheaply. Interceptors run in the order they were added to the builder;
 * the last {@link Next#proceed()} decodes the arguments and runs the implementation.
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
