package io.rpcx.core.reflection;

/**
 * One field of a POJO or record as RPCX carries it. Immutable.
 *
 * @param name the Java field or record component name
 * @param number its protobuf field number (fields are numbered 1..n in order of their names)
 * @param type its RPCX type descriptor
 */
public record FieldDescription(String name, int number, String type) {}
