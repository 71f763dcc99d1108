package io.rpcx.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Gives a service method the name it is published under, and optionally its own timeout.
 *
 * <p>On a client interface, it names the remote method a Java method calls. On a service interface
 * or on the implementing method of an {@link RPCXServer} class, it names the method the server
 * publishes. Without it, a method is published under its Java name. If an interface method and its
 * implementation both carry {@code @Method}, the names must agree.
 *
 * <pre>{@code
 * @Method(value = "loadOrder", timeoutMillis = 2_000)
 * OrderInfo find(long id);
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Method {

  /** The published method name; empty means the Java method name. */
  String value() default "";

  /**
   * Client-side timeout in milliseconds for calls of this method; 0 means the interface's or the
   * client's default. The timeout travels with the request so the server can drop work whose caller
   * has given up.
   */
  long timeoutMillis() default 0;
}
