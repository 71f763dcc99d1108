package io.rpcx.spring.boot;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Import;

/**
 * Registers a bean for each {@code @RPCXClient} interface found in the given packages, or named in
 * {@link #types()}: a proxy that calls the remote service through the application's one shared
 * {@code RpcxClient} (the bean {@code rpcxClient}, configured by {@code rpcx.client.*} and closed
 * with the context). The beans are typed, so constructor injection by interface works, and can be
 * replaced in tests ({@code @MockitoBean}).
 *
 * <pre>{@code
 * @SpringBootApplication
 * @EnableRpcxClients(basePackageClasses = OrderService.class)
 * class ShopApplication { ... }
 *
 * @Service
 * class Checkout {
 *   Checkout(OrderService orders) { ... } // calls the remote "orders" service
 * }
 * }</pre>
 *
 * <p>Without packages or types it scans the package of the annotated class and its subpackages.
 * Each bean is named after its interface's fully qualified name. Every interface is checked when
 * the client is created, so an annotation mistake fails the start. The interfaces are listed in
 * the bean {@link RpcxClientInterfaces}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Import(RpcxClientsRegistrar.class)
public @interface EnableRpcxClients {

  /** The name of the {@code RpcxClient} bean the interface beans are made by. */
  String CLIENT_BEAN = "rpcxClient";

  /** Packages to scan for {@code @RPCXClient} interfaces, with their subpackages. */
  String[] basePackages() default {};

  /** Packages to scan, given by a class in each (type-safe {@link #basePackages()}). */
  Class<?>[] basePackageClasses() default {};

  /** {@code @RPCXClient} interfaces to register, in addition to those the scan finds. */
  Class<?>[] types() default {};
}
