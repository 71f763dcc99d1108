package io.rpcx.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares that running a method twice has the same effect as running it once, so that the client
 * may retry a call that was sent but whose outcome was lost (the connection broke while it was in
 * flight) on another server.
 *
 * <p>On a method of an {@link RPCXClient} interface, or on the interface for all its methods.
 * Without it, a call that may have reached the server is never sent again: it fails, and the caller
 * decides. Calls that certainly never reached a server are retried either way.
 *
 * <pre>{@code
 * @Idempotent
 * OrderInfo loadOrder(long id);
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Idempotent {}
