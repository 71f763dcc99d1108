package io.rpcx.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * When a call of this method is cancelled (its client gave up: timed out, cancelled, closed its
 * connection), the server interrupts the thread running the implementation, so that a blocking
 * wait in it ({@code Thread.sleep}, a {@code BlockingQueue}, JDBC drivers that honour interrupts)
 * ends at once with an {@code InterruptedException} instead of running on for nobody. Without it
 * the call's {@code RpcxContext} is only marked cancelled ({@code isCancelled()}, {@code
 * onCancel(...)}), which code checks where it sees fit: interrupting code that does not expect it
 * can leave a shared resource half done, so it is an opt-in, as gRPC and Java's executors make it.
 *
 * <p>On a method of a service interface or of its implementation, or on either type for all its
 * methods. Only the thread running the method itself is interrupted, while it runs; the interrupt
 * it did not consume is cleared before the thread serves its next call. A method returning a
 * {@code CompletableFuture} is interrupted only while it has not returned.
 *
 * <pre>{@code
 * @InterruptOnCancel
 * Report build(ReportRequest request); // blocks on the database for minutes
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface InterruptOnCancel {}
