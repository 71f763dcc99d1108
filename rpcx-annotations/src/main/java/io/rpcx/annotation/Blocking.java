package io.rpcx.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares that code may block its thread, so the server must never run it on a network thread.
 *
 * <ul>
 *   <li>On a service method that returns {@code CompletableFuture} or {@code CompletionStage}, or
 *       on its {@link RPCXServer} class for all its methods: the server runs it on its executor
 *       (worker pool or virtual threads), as a synchronous method, instead of on the network
 *       thread that read its request. For an asynchronous method that still does blocking work
 *       before it returns its future.
 *   <li>On the class of a {@code ServerInterceptor} that blocks (a token check that calls
 *       another service and waits, for example): interceptors run where the method they
 *       intercept runs, so with such an interceptor every method runs on the executor.
 * </ul>
 *
 * <pre>{@code
 * @Blocking
 * public CompletableFuture<Order> load(long id) {
 *   return CompletableFuture.completedFuture(jdbc.load(id)); // waits for the database first
 * }
 * }</pre>
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Blocking {}
