package io.rpcx.core.internal.reflection;

import java.util.List;

/** A message of a generated {@code .proto} file, with its nested messages. */
record ProtoMessage(
    String name, String comment, List<ProtoField> fields, List<ProtoMessage> nested, boolean mapEntry) {
  ProtoMessage {
    fields = List.copyOf(fields);
    nested = List.copyOf(nested);
  }

  static ProtoMessage of(String name, String comment, List<ProtoField> fields) {
    return new ProtoMessage(name, comment, fields, List.of(), false);
  }
}
