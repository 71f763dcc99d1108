package io.rpcx.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares that a service method never blocks its thread (no I/O waited for, no lock waited on, no
 * blocking RPCX call, no {@code Future.get()}), so that the server runs it on the network thread
 * that read its request instead of handing it to a worker thread and its reply back: the
 * cheapest way a call can run. Methods without streams that return {@code CompletableFuture} or
 * {@code CompletionStage} are taken as non-blocking without it; {@link Blocking} says otherwise.
 * On a streaming method it puts the stream's signals on the network thread too: the stream
 * argument's {@code onNext}, and the pulls of a server stream's elements.
 *
 * <p>On a method of an {@link RPCXServer} class (or of its service interface), or on the class for
 * all its methods; the nearer annotation wins (the implementation's method, then its class, then
 * the interface's method, then the interface). A method that takes a stream argument and returns
 * its reply synchronously waits for the stream and cannot be non-blocking, nor can a method
 * annotated {@code @InterruptOnCancel}: the server refuses to build.
 *
 * <p>While such a method runs, every other call on the connections of its network thread waits.
 * A call that holds its network thread too long is logged as a warning naming the method, with
 * where it is stuck ({@code RpcxServer.Builder.blockedEventLoopThreshold}); a blocking RPCX call
 * made from it fails at once.
 *
 * <pre>{@code
 * @NonBlocking
 * public Price quote(String sku) {
 *   return prices.get(sku); // an in-memory map
 * }
 * }</pre>
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface NonBlocking {}
