package io.rpcx.core.reflection;

import java.util.List;

/**
 * A type with a structure of its own that a service's methods reach: a POJO or record with its
 * fields as RPCX numbers them on the wire, an enum with its constants, or a protobuf message.
 * Immutable.
 *
 * @param name its type descriptor: the simple name, with type arguments for a generic POJO
 *     ({@code Page<User>}), or a protobuf message's full name
 * @param kind what it is
 * @param javaClass the Java class name on the server
 * @param fields a POJO's or record's fields, by field number; empty for other kinds
 * @param constants an enum's constants, in declaration order; empty for other kinds
 */
public record TypeDescription(
    String name, Kind kind, String javaClass, List<FieldDescription> fields, List<String> constants) {
  /** Copies the lists. */
  public TypeDescription {
    fields = List.copyOf(fields);
    constants = List.copyOf(constants);
  }

  /** The kinds of described types. */
  public enum Kind {
    /** A class carried field by field. */
    CLASS,
    /** A record carried component by component. */
    RECORD,
    /** An enum, carried as the name of its constant. */
    ENUM,
    /** A protobuf message, carried as itself. */
    PROTOBUF
  }
}
