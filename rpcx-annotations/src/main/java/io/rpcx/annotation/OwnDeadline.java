package io.rpcx.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Calls of this method keep their own timeout even when made while serving a call: they do not
 * inherit the deadline of the call being served. For work that must outlive its caller, such as
 * writing an audit record that must be kept even if the caller gives up.
 *
 * <p>On a method of an {@link RPCXClient} interface, or on the interface for all its methods.
 * Without it, a call made while serving another ends by the earlier of its own timeout and the
 * served call's deadline, as gRPC's deadline propagation does.
 *
 * <pre>{@code
 * @OwnDeadline
 * void record(AuditEntry entry);
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface OwnDeadline {}
