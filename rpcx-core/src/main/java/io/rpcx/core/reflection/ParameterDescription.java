package io.rpcx.core.reflection;

/**
 * One parameter of a method. Immutable.
 *
 * @param name the Java parameter name when the service was compiled with {@code -parameters}, else
 *     {@code argN}
 * @param type its RPCX type descriptor, the {@code Argument.type} a request must carry
 */
public record ParameterDescription(String name, String type) {}
