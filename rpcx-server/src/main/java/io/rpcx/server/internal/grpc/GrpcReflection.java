package io.rpcx.server.internal.grpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code grpc.reflection.v1.ServerReflection} (and {@code v1alpha}), answered from the exported
 * schemas of the published services (docs/GRPC.md, "Reflection"): the services' names, and each
 * file by name or by a symbol it defines, with the files it imports, so that {@code grpcurl list},
 * {@code describe} and {@code call} need no {@code .proto} file. Built once at start; the answers of
 * one stream leave out files it was already sent, as gRPC's own reflection does. Thread-safe.
 */
public final class GrpcReflection {
  public static final String V1 = "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo";
  public static final String V1_ALPHA =
      "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo";

  /** gRPC's NOT_FOUND and UNIMPLEMENTED, as reflection's ErrorResponse carries them. */
  private static final int NOT_FOUND = 5;

  private static final int UNIMPLEMENTED = 12;

  private final List<String> services;
  private final Map<String, Descriptors.FileDescriptor> files = new HashMap<>();
  private final Map<String, Descriptors.FileDescriptor> bySymbol = new HashMap<>();

  /** Reflection over {@code serviceFiles} (one per published service) and the standard services. */
  public GrpcReflection(List<Descriptors.FileDescriptor> serviceFiles, boolean health) {
    List<String> names = new ArrayList<>();
    List<Descriptors.FileDescriptor> all = new ArrayList<>(serviceFiles);
    if (health) {
      all.add(GrpcStandardProtos.HEALTH);
    }
    all.add(GrpcStandardProtos.REFLECTION);
    all.add(GrpcStandardProtos.REFLECTION_ALPHA);
    for (Descriptors.FileDescriptor file : all) {
      index(file);
      for (Descriptors.ServiceDescriptor service : file.getServices()) {
        names.add(service.getFullName());
      }
    }
    names.sort(null);
    this.services = List.copyOf(names);
  }

  private void index(Descriptors.FileDescriptor file) {
    if (files.putIfAbsent(file.getName(), file) != null) {
      return;
    }
    for (Descriptors.FileDescriptor dependency : file.getDependencies()) {
      index(dependency);
    }
    for (Descriptors.Descriptor message : file.getMessageTypes()) {
      indexMessage(message, file);
    }
    for (Descriptors.EnumDescriptor enumType : file.getEnumTypes()) {
      bySymbol.put(enumType.getFullName(), file);
    }
    for (Descriptors.ServiceDescriptor service : file.getServices()) {
      bySymbol.put(service.getFullName(), file);
      for (Descriptors.MethodDescriptor method : service.getMethods()) {
        bySymbol.put(method.getFullName(), file);
      }
    }
  }

  private void indexMessage(Descriptors.Descriptor message, Descriptors.FileDescriptor file) {
    bySymbol.put(message.getFullName(), file);
    for (Descriptors.Descriptor nested : message.getNestedTypes()) {
      indexMessage(nested, file);
    }
    for (Descriptors.EnumDescriptor enumType : message.getEnumTypes()) {
      bySymbol.put(enumType.getFullName(), file);
    }
  }

  /** The names of the services this endpoint answers, sorted: what {@code list} shows. */
  public List<String> services() {
    return services;
  }

  /** One reflection stream: its answers, and the files it was sent. Not thread-safe. */
  public Exchange exchange(boolean alpha) {
    return new Exchange(
        alpha ? GrpcStandardProtos.REFLECTION_ALPHA : GrpcStandardProtos.REFLECTION);
  }

  /** The answers of one {@code ServerReflectionInfo} stream, request by request. */
  public final class Exchange {
    private final Descriptors.Descriptor requestType;
    private final Descriptors.Descriptor responseType;
    private final Set<String> sent = new HashSet<>();

    private Exchange(Descriptors.FileDescriptor schema) {
      this.requestType = schema.findMessageTypeByName("ServerReflectionRequest");
      this.responseType = schema.findMessageTypeByName("ServerReflectionResponse");
    }

    /**
     * The {@code ServerReflectionResponse} to one {@code ServerReflectionRequest}.
     *
     * @throws InvalidProtocolBufferException if the request is not one
     */
    public byte[] answer(byte[] requestBytes) throws InvalidProtocolBufferException {
      DynamicMessage request = DynamicMessage.parseFrom(requestType, requestBytes);
      DynamicMessage.Builder response =
          DynamicMessage.newBuilder(responseType)
              .setField(responseType.findFieldByName("valid_host"), request.getField(field("host")))
              .setField(responseType.findFieldByName("original_request"), request);
      if (request.hasField(field("list_services"))) {
        Descriptors.Descriptor listType = message("ListServiceResponse");
        Descriptors.Descriptor serviceType = message("ServiceResponse");
        DynamicMessage.Builder list = DynamicMessage.newBuilder(listType);
        for (String service : services) {
          list.addRepeatedField(
              listType.findFieldByName("service"),
              DynamicMessage.newBuilder(serviceType)
                  .setField(serviceType.findFieldByName("name"), service)
                  .build());
        }
        response.setField(responseType.findFieldByName("list_services_response"), list.build());
      } else if (request.hasField(field("file_by_filename"))) {
        String name = (String) request.getField(field("file_by_filename"));
        files(response, files.get(name), "no file '" + name + "'");
      } else if (request.hasField(field("file_containing_symbol"))) {
        String symbol = (String) request.getField(field("file_containing_symbol"));
        files(response, bySymbol.get(symbol), "no symbol '" + symbol + "'");
      } else if (request.hasField(field("file_containing_extension"))) {
        error(response, NOT_FOUND, "this server's files define no extensions");
      } else if (request.hasField(field("all_extension_numbers_of_type"))) {
        String type = (String) request.getField(field("all_extension_numbers_of_type"));
        if (bySymbol.containsKey(type)) {
          Descriptors.Descriptor numbers = message("ExtensionNumberResponse");
          response.setField(
              responseType.findFieldByName("all_extension_numbers_response"),
              DynamicMessage.newBuilder(numbers)
                  .setField(numbers.findFieldByName("base_type_name"), type)
                  .build());
        } else {
          error(response, NOT_FOUND, "no type '" + type + "'");
        }
      } else {
        error(response, UNIMPLEMENTED, "the request asks for nothing this server knows");
      }
      return response.build().toByteArray();
    }

    /** {@code file} and what it imports, less what this stream was sent; or an error. */
    private void files(
        DynamicMessage.Builder response, Descriptors.FileDescriptor file, String missing) {
      if (file == null) {
        error(response, NOT_FOUND, missing);
        return;
      }
      Descriptors.Descriptor filesType = message("FileDescriptorResponse");
      DynamicMessage.Builder answer = DynamicMessage.newBuilder(filesType);
      List<Descriptors.FileDescriptor> order = new ArrayList<>();
      collect(file, order, new HashSet<>());
      boolean first = true;
      for (Descriptors.FileDescriptor each : order) {
        // The file asked for always; the ones it imports once per stream.
        if (first || sent.add(each.getName())) {
          answer.addRepeatedField(
              filesType.findFieldByName("file_descriptor_proto"),
              ByteString.copyFrom(each.toProto().toByteArray()));
        }
        first = false;
      }
      sent.add(file.getName());
      response.setField(responseType.findFieldByName("file_descriptor_response"), answer.build());
    }

    private void collect(
        Descriptors.FileDescriptor file, List<Descriptors.FileDescriptor> order, Set<String> seen) {
      if (!seen.add(file.getName())) {
        return;
      }
      order.add(file);
      for (Descriptors.FileDescriptor dependency : file.getDependencies()) {
        collect(dependency, order, seen);
      }
    }

    private void error(DynamicMessage.Builder response, int code, String message) {
      Descriptors.Descriptor errorType = message("ErrorResponse");
      response.setField(
          responseType.findFieldByName("error_response"),
          DynamicMessage.newBuilder(errorType)
              .setField(errorType.findFieldByName("error_code"), code)
              .setField(errorType.findFieldByName("error_message"), message)
              .build());
    }

    private Descriptors.FieldDescriptor field(String name) {
      return requestType.findFieldByName(name);
    }

    private Descriptors.Descriptor message(String name) {
      return requestType.getFile().findMessageTypeByName(name);
    }
  }
}
