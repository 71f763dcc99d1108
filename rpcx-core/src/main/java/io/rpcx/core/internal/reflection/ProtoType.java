package io.rpcx.core.internal.reflection;

import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;

/**
 * The protobuf type of a value: a scalar, or a message by its fully qualified name (leading dot),
 * with the file that defines it ({@code null} for the file being built).
 */
record ProtoType(FieldDescriptorProto.Type scalar, String messageType, String file) {
  static ProtoType scalar(FieldDescriptorProto.Type scalar) {
    return new ProtoType(scalar, null, null);
  }

  static ProtoType message(String fullName, String file) {
    return new ProtoType(null, "." + fullName, file);
  }

  /** Whether protobuf allows this type as a {@code map} key. */
  boolean isMapKey() {
    return scalar != null
        && scalar != FieldDescriptorProto.Type.TYPE_BYTES
        && scalar != FieldDescriptorProto.Type.TYPE_FLOAT
        && scalar != FieldDescriptorProto.Type.TYPE_DOUBLE;
  }
}
