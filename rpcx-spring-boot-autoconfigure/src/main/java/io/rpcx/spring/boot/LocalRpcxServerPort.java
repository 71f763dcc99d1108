package io.rpcx.spring.boot;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.beans.factory.annotation.Value;

/**
 * Injects the port the application's RPCX server listens on once it started (the property {@code
 * local.rpcx.server.port}), for tests that start it on a free port ({@code rpcx.server.port=0}):
 *
 * <pre>{@code
 * @SpringBootTest(properties = "rpcx.server.port=0")
 * class OrdersIT {
 *   @LocalRpcxServerPort int port;
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.ANNOTATION_TYPE})
@Value("${local.rpcx.server.port}")
public @interface LocalRpcxServerPort {}
