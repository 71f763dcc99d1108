package io.rpcx.core.reflection;

import java.util.List;

/**
 * One method of a published service. Types are RPCX type descriptors ({@code docs/PROTOCOL.md},
 * section 2.1): {@code string}, {@code int64}, {@code list<OrderItem>}, {@code OrderInfo}. Immutable.
 *
 * @param name the published name ({@code @Method}, else the Java name)
 * @param javaName the name of the Java method
 * @param parameters the parameters, in the order of the request's arguments
 * @param resultType the descriptor of the result, {@code void} when the method returns nothing (a
 *     {@code CompletableFuture}'s value type for an asynchronous method; {@code stream<T>} for a
 *     server stream, a method returning {@code Flow.Publisher<T>} or {@code Stream<T>})
 * @param asynchronous whether the Java method returns a {@code CompletableFuture}
 * @param declaredExceptions class names of the checked exceptions the method declares
 * @param idempotent whether the method is {@code @Idempotent} (a client may retry it)
 * @param timeoutMillis the timeout its annotations set, 0 when none
 * @param ownDeadline whether the method is {@code @OwnDeadline}: calls it makes do not inherit its
 *     deadline
 */
public record MethodDescription(
    String name,
    String javaName,
    List<ParameterDescription> parameters,
    String resultType,
    boolean asynchronous,
    List<String> declaredExceptions,
    boolean idempotent,
    long timeoutMillis,
    boolean ownDeadline) {
  /** Copies the lists. */
  public MethodDescription {
    parameters = List.copyOf(parameters);
    declaredExceptions = List.copyOf(declaredExceptions);
  }

  /** {@code name(type name, ...) -> resultType}, as {@code rpcx describe} prints it. */
  public String signature() {
    StringBuilder text = new StringBuilder(name).append('(');
    for (int i = 0; i < parameters.size(); i++) {
      if (i > 0) {
        text.append(", ");
      }
      text.append(parameters.get(i).type()).append(' ').append(parameters.get(i).name());
    }
    return text.append(") -> ").append(resultType).toString();
  }
}
