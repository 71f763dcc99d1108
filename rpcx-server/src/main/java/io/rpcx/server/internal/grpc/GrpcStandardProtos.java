package io.rpcx.server.internal.grpc;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumDescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumValueDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Label;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.MethodDescriptorProto;
import com.google.protobuf.DescriptorProtos.OneofDescriptorProto;
import com.google.protobuf.DescriptorProtos.ServiceDescriptorProto;
import com.google.protobuf.Descriptors;

/**
 * The schemas of the standard services the gRPC endpoint answers itself, as their published
 * {@code .proto} files define them: {@code grpc/health/v1/health.proto} and
 * {@code grpc/reflection/v1/reflection.proto} (and its {@code v1alpha}, which many tools still
 * use). Built once; reflection serves them like the services' own files.
 */
final class GrpcStandardProtos {
  static final Descriptors.FileDescriptor HEALTH = build(health());
  static final Descriptors.FileDescriptor REFLECTION = build(reflection("v1"));
  static final Descriptors.FileDescriptor REFLECTION_ALPHA = build(reflection("v1alpha"));

  private GrpcStandardProtos() {}

  private static FileDescriptorProto health() {
    return FileDescriptorProto.newBuilder()
        .setName("grpc/health/v1/health.proto")
        .setPackage("grpc.health.v1")
        .setSyntax("proto3")
        .addMessageType(message("HealthCheckRequest").addField(field("service", 1, Type.TYPE_STRING)))
        .addMessageType(
            message("HealthCheckResponse")
                .addField(
                    field("status", 1, Type.TYPE_ENUM)
                        .setTypeName(".grpc.health.v1.HealthCheckResponse.ServingStatus"))
                .addEnumType(
                    EnumDescriptorProto.newBuilder()
                        .setName("ServingStatus")
                        .addValue(value("UNKNOWN", 0))
                        .addValue(value("SERVING", 1))
                        .addValue(value("NOT_SERVING", 2))
                        .addValue(value("SERVICE_UNKNOWN", 3))))
        .addService(
            ServiceDescriptorProto.newBuilder()
                .setName("Health")
                .addMethod(
                    rpc("Check", ".grpc.health.v1.HealthCheckRequest",
                        ".grpc.health.v1.HealthCheckResponse", false, false))
                .addMethod(
                    rpc("Watch", ".grpc.health.v1.HealthCheckRequest",
                        ".grpc.health.v1.HealthCheckResponse", false, true)))
        .build();
  }

  private static FileDescriptorProto reflection(String version) {
    String pkg = ".grpc.reflection." + version + ".";
    return FileDescriptorProto.newBuilder()
        .setName("grpc/reflection/" + version + "/reflection.proto")
        .setPackage("grpc.reflection." + version)
        .setSyntax("proto3")
        .addMessageType(
            message("ServerReflectionRequest")
                .addField(field("host", 1, Type.TYPE_STRING))
                .addOneofDecl(OneofDescriptorProto.newBuilder().setName("message_request"))
                .addField(field("file_by_filename", 3, Type.TYPE_STRING).setOneofIndex(0))
                .addField(field("file_containing_symbol", 4, Type.TYPE_STRING).setOneofIndex(0))
                .addField(
                    field("file_containing_extension", 5, Type.TYPE_MESSAGE)
                        .setTypeName(pkg + "ExtensionRequest")
                        .setOneofIndex(0))
                .addField(
                    field("all_extension_numbers_of_type", 6, Type.TYPE_STRING).setOneofIndex(0))
                .addField(field("list_services", 7, Type.TYPE_STRING).setOneofIndex(0)))
        .addMessageType(
            message("ExtensionRequest")
                .addField(field("containing_type", 1, Type.TYPE_STRING))
                .addField(field("extension_number", 2, Type.TYPE_INT32)))
        .addMessageType(
            message("ServerReflectionResponse")
                .addField(field("valid_host", 1, Type.TYPE_STRING))
                .addField(
                    field("original_request", 2, Type.TYPE_MESSAGE)
                        .setTypeName(pkg + "ServerReflectionRequest"))
                .addOneofDecl(OneofDescriptorProto.newBuilder().setName("message_response"))
                .addField(
                    field("file_descriptor_response", 4, Type.TYPE_MESSAGE)
                        .setTypeName(pkg + "FileDescriptorResponse")
                        .setOneofIndex(0))
                .addField(
                    field("all_extension_numbers_response", 5, Type.TYPE_MESSAGE)
                        .setTypeName(pkg + "ExtensionNumberResponse")
                        .setOneofIndex(0))
                .addField(
                    field("list_services_response", 6, Type.TYPE_MESSAGE)
                        .setTypeName(pkg + "ListServiceResponse")
                        .setOneofIndex(0))
                .addField(
                    field("error_response", 7, Type.TYPE_MESSAGE)
                        .setTypeName(pkg + "ErrorResponse")
                        .setOneofIndex(0)))
        .addMessageType(
            message("FileDescriptorResponse")
                .addField(
                    field("file_descriptor_proto", 1, Type.TYPE_BYTES).setLabel(Label.LABEL_REPEATED)))
        .addMessageType(
            message("ExtensionNumberResponse")
                .addField(field("base_type_name", 1, Type.TYPE_STRING))
                .addField(
                    field("extension_number", 2, Type.TYPE_INT32).setLabel(Label.LABEL_REPEATED)))
        .addMessageType(
            message("ListServiceResponse")
                .addField(
                    field("service", 1, Type.TYPE_MESSAGE)
                        .setLabel(Label.LABEL_REPEATED)
                        .setTypeName(pkg + "ServiceResponse")))
        .addMessageType(message("ServiceResponse").addField(field("name", 1, Type.TYPE_STRING)))
        .addMessageType(
            message("ErrorResponse")
                .addField(field("error_code", 1, Type.TYPE_INT32))
                .addField(field("error_message", 2, Type.TYPE_STRING)))
        .addService(
            ServiceDescriptorProto.newBuilder()
                .setName("ServerReflection")
                .addMethod(
                    rpc("ServerReflectionInfo", pkg + "ServerReflectionRequest",
                        pkg + "ServerReflectionResponse", true, true)))
        .build();
  }

  private static DescriptorProto.Builder message(String name) {
    return DescriptorProto.newBuilder().setName(name);
  }

  private static FieldDescriptorProto.Builder field(String name, int number, Type type) {
    return FieldDescriptorProto.newBuilder()
        .setName(name)
        .setNumber(number)
        .setType(type)
        .setLabel(Label.LABEL_OPTIONAL);
  }

  private static EnumValueDescriptorProto value(String name, int number) {
    return EnumValueDescriptorProto.newBuilder().setName(name).setNumber(number).build();
  }

  private static MethodDescriptorProto rpc(
      String name, String input, String output, boolean clientStreaming, boolean serverStreaming) {
    return MethodDescriptorProto.newBuilder()
        .setName(name)
        .setInputType(input)
        .setOutputType(output)
        .setClientStreaming(clientStreaming)
        .setServerStreaming(serverStreaming)
        .build();
  }

  private static Descriptors.FileDescriptor build(FileDescriptorProto proto) {
    try {
      return Descriptors.FileDescriptor.buildFrom(proto, new Descriptors.FileDescriptor[0]);
    } catch (Descriptors.DescriptorValidationException e) {
      throw new IllegalStateException(proto.getName() + " is not valid protobuf", e);
    }
  }
}
