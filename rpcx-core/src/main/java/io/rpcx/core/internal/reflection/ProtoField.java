package io.rpcx.core.internal.reflection;

import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;

/**
 * One field of a generated message: a scalar ({@code scalar} set) or a message ({@code
 * messageType}, fully qualified with a leading dot, set); a {@code map<K, V>} field when {@code
 * mapEntry} is set (the nested entry message protobuf defines for it). A scalar field is {@code
 * optional} (proto3 presence) where an absent value must differ from zero, false and empty.
 */
record ProtoField(
    String name,
    int number,
    boolean repeated,
    boolean optional,
    FieldDescriptorProto.Type scalar,
    String messageType,
    ProtoMessage mapEntry,
    String comment) {

  static ProtoField of(String name, int number, ProtoType type, boolean repeated, String comment) {
    return new ProtoField(
        name, number, repeated, false, type.scalar(), type.messageType(), null, comment);
  }

  /** A field that carries one value: {@code optional} when it is a scalar, so null is absent. */
  static ProtoField value(String name, int number, ProtoType type, String comment) {
    return new ProtoField(
        name, number, false, type.scalar() != null, type.scalar(), type.messageType(), null,
        comment);
  }

  static ProtoField map(String name, int number, ProtoMessage entry, String comment) {
    return new ProtoField(name, number, true, false, null, null, entry, comment);
  }
}
