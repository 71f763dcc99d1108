package io.rpcx.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the parameter whose value picks the server when the client balances a service by
 * consistent hashing: calls with equal keys go to the same server while it is healthy, and only
 * the keys of a server that leaves or joins move.
 *
 * <p>At most one parameter per method; its type must be a {@code String}, a primitive or its box,
 * an enum or a {@code UUID}, whose hash is the same in every JVM. Methods without a routing key are
 * balanced by least in-flight calls. Ignored by the other strategies.
 *
 * <pre>{@code
 * Cart loadCart(@RoutingKey String customerId);
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface RoutingKey {}
