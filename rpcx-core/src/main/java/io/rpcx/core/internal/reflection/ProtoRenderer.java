package io.rpcx.core.internal.reflection;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.MessageOptions;
import com.google.protobuf.DescriptorProtos.MethodDescriptorProto;
import com.google.protobuf.DescriptorProtos.OneofDescriptorProto;
import com.google.protobuf.DescriptorProtos.ServiceDescriptorProto;
import java.util.Locale;

/**
 * Writes a {@link ProtoFile} both as {@code .proto} text and as a {@code FileDescriptorProto}, from
 * the same messages and services, so the two cannot disagree.
 */
final class ProtoRenderer {
  private ProtoRenderer() {}

  static FileDescriptorProto descriptor(ProtoFile file) {
    FileDescriptorProto.Builder proto =
        FileDescriptorProto.newBuilder()
            .setName(file.name())
            .setPackage(file.packageName())
            .setSyntax("proto3")
            .addAllDependency(file.imports());
    for (ProtoMessage message : file.messages()) {
      proto.addMessageType(descriptor(message, "." + file.packageName() + "." + message.name()));
    }
    for (ProtoService service : file.services()) {
      ServiceDescriptorProto.Builder built =
          ServiceDescriptorProto.newBuilder().setName(service.name());
      for (ProtoService.Rpc rpc : service.rpcs()) {
        built.addMethod(
            MethodDescriptorProto.newBuilder()
                .setName(rpc.name())
                .setInputType("." + file.packageName() + "." + rpc.request())
                .setOutputType("." + file.packageName() + "." + rpc.reply())
                .setClientStreaming(rpc.clientStreaming())
                .setServerStreaming(rpc.serverStreaming()));
      }
      proto.addService(built);
    }
    return proto.build();
  }

  private static DescriptorProto descriptor(ProtoMessage message, String fullName) {
    DescriptorProto.Builder proto = DescriptorProto.newBuilder().setName(message.name());
    if (message.mapEntry()) {
      proto.setOptions(MessageOptions.newBuilder().setMapEntry(true));
    }
    for (ProtoField field : message.fields()) {
      FieldDescriptorProto.Builder built =
          FieldDescriptorProto.newBuilder()
              .setName(field.name())
              .setNumber(field.number())
              .setLabel(
                  field.repeated()
                      ? FieldDescriptorProto.Label.LABEL_REPEATED
                      : FieldDescriptorProto.Label.LABEL_OPTIONAL);
      if (field.optional()) {
        // proto3 presence: a synthetic one-field oneof, named as protoc names it.
        built.setProto3Optional(true).setOneofIndex(proto.getOneofDeclCount());
        proto.addOneofDecl(OneofDescriptorProto.newBuilder().setName("_" + field.name()));
      }
      if (field.mapEntry() != null) {
        proto.addNestedType(descriptor(field.mapEntry(), fullName + "." + field.mapEntry().name()));
        built.setType(FieldDescriptorProto.Type.TYPE_MESSAGE)
            .setTypeName(fullName + "." + field.mapEntry().name());
      } else if (field.scalar() != null) {
        built.setType(field.scalar());
      } else {
        built.setType(FieldDescriptorProto.Type.TYPE_MESSAGE).setTypeName(field.messageType());
      }
      proto.addField(built);
    }
    for (ProtoMessage nested : message.nested()) {
      proto.addNestedType(descriptor(nested, fullName + "." + nested.name()));
    }
    return proto.build();
  }

  static String text(ProtoFile file) {
    StringBuilder out = new StringBuilder();
    comment(out, "", file.comment());
    out.append("syntax = \"proto3\";\n\npackage ").append(file.packageName()).append(";\n");
    if (!file.imports().isEmpty()) {
      out.append('\n');
      for (String imported : file.imports()) {
        out.append("import \"").append(imported).append("\";\n");
      }
    }
    for (ProtoMessage message : file.messages()) {
      out.append('\n');
      message(out, message, file.packageName(), "");
    }
    for (ProtoService service : file.services()) {
      out.append('\n');
      comment(out, "", service.comment());
      out.append("service ").append(service.name()).append(" {\n");
      for (ProtoService.Rpc rpc : service.rpcs()) {
        comment(out, "  ", rpc.comment());
        out.append("  rpc ")
            .append(rpc.name())
            .append('(')
            .append(rpc.clientStreaming() ? "stream " : "")
            .append(rpc.request())
            .append(") returns (")
            .append(rpc.serverStreaming() ? "stream " : "")
            .append(rpc.reply())
            .append(");\n");
      }
      out.append("}\n");
    }
    return out.toString();
  }

  private static void message(StringBuilder out, ProtoMessage message, String packageName, String indent) {
    comment(out, indent, message.comment());
    out.append(indent).append("message ").append(message.name()).append(" {\n");
    boolean nested = !indent.isEmpty();
    for (ProtoField field : message.fields()) {
      comment(out, indent + "  ", field.comment());
      out.append(indent).append("  ");
      if (field.mapEntry() != null) {
        ProtoField key = field.mapEntry().fields().get(0);
        ProtoField value = field.mapEntry().fields().get(1);
        out.append("map<")
            .append(typeName(key, packageName, nested))
            .append(", ")
            .append(typeName(value, packageName, nested))
            .append('>');
      } else {
        if (field.repeated()) {
          out.append("repeated ");
        } else if (field.optional()) {
          out.append("optional ");
        }
        out.append(typeName(field, packageName, nested));
      }
      out.append(' ').append(field.name()).append(" = ").append(field.number()).append(";\n");
    }
    for (ProtoMessage inner : message.nested()) {
      out.append('\n');
      message(out, inner, packageName, indent + "  ");
    }
    out.append(indent).append("}\n");
  }

  /**
   * A field's type as written in the file. A message of the file's own package is named by its
   * short name from a top-level message (whose only nested messages are the ones its own fields
   * mean), and by its full name from a nested one, where a nested name could hide it; a message of
   * another package always by its full name from the root, which no package of the file can hide.
   */
  private static String typeName(ProtoField field, String packageName, boolean nested) {
    if (field.scalar() != null) {
      return field.scalar().name().substring("TYPE_".length()).toLowerCase(Locale.ROOT);
    }
    String ownPrefix = "." + packageName + ".";
    if (!nested && field.messageType().startsWith(ownPrefix)) {
      return field.messageType().substring(ownPrefix.length());
    }
    return field.messageType();
  }

  private static void comment(StringBuilder out, String indent, String comment) {
    if (comment == null || comment.isEmpty()) {
      return;
    }
    for (String line : comment.split("\n", -1)) {
      out.append(indent).append("//").append(line.isEmpty() ? "" : " " + line).append('\n');
    }
  }
}
