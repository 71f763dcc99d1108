package io.rpcx.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class as the implementation of an RPCX service and gives the name it is published under.
 *
 * <p>The published methods are the methods of the service interfaces the class implements: every
 * interface it implements directly or through a superclass, except interfaces of the JDK ({@code
 * java.*}, {@code javax.*}). A class that implements no such interface is rejected when the server
 * is built. The published name may differ from the class name (the paper's "disguise"): clients only
 * ever see the published names of the service and of its methods.
 *
 * <pre>{@code
 * @RPCXServer(name = "orders")
 * public final class OrderServiceImpl implements OrderService {
 *   public String echo(String text) { return text; }
 * }
 * }</pre>
 *
 * <p>A server finds annotated classes by package scan and creates them through their public
 * no-argument constructor, or takes ready-made instances from {@code RpcxServer.Builder.service}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface RPCXServer {

  /** The name this service is published under; clients refer to it in {@link RPCXClient#name()}. */
  String name();
}
