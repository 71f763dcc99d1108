package io.rpcx.core;

/**
 * A blocking operation was attempted on one of RPCX's network threads, where waiting would stall
 * every other call of that thread's connections (and could wait for work only that same thread
 * would do): a blocking RPCX call made by a method that runs on the network thread because it
 * never blocks (asynchronous, or annotated {@code @NonBlocking}), for example, or a wait ({@code
 * join()}, {@code get()}) there for the future of an asynchronous RPCX call, or a stage made from
 * it, that is not done. Thrown at once, before anything is sent or waited for, as Netty's {@code
 * BlockingOperationException} is; make the call through an asynchronous client method (one
 * returning {@code CompletableFuture}) and compose its future instead, or annotate the calling
 * method {@code @Blocking} so that it runs on a worker.
 */
public final class BlockingOperationException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public BlockingOperationException(String message) {
    super(message);
  }
}
