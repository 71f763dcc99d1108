package io.rpcx.core;

/**
 * A blocking operation was attempted on one of RPCX's network threads, where waiting would stall
 * every other call of that thread's connections (and could wait for work only that same thread
 * would do): a blocking RPCX call made by a method that runs on the network thread because it
 * never blocks (asynchronous, or annotated {@code @NonBlocking}), for example. Thrown at once,
 * before anything is sent, as Netty's {@code BlockingOperationException} is; make the call through
 * an asynchronous client method (one returning {@code CompletableFuture}) instead, or annotate the
 * calling method {@code @Blocking} so that it runs on a worker.
 */
public final class BlockingOperationException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public BlockingOperationException(String message) {
    super(message);
  }
}
