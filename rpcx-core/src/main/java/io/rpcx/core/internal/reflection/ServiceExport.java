package io.rpcx.core.internal.reflection;

import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors;
import com.google.protobuf.Duration;
import com.google.protobuf.Timestamp;
import io.rpcx.core.reflection.ServiceDescription;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The protobuf schema of one service's wire format: its {@code .proto} file, the files it imports,
 * and the {@code FileDescriptorSet} of them all, built once and checked by protobuf-java's own
 * descriptor validation. Immutable and thread-safe.
 */
public final class ServiceExport {
  /** The schema of the envelope, shipped in rpcx-core's jar. */
  public static final String ENVELOPE_FILE = "rpcx/v1/rpcx.proto";

  private final ServiceDescription description;
  private final Map<String, String> protoFiles;
  private final FileDescriptorSet descriptorSet;
  private final Descriptors.FileDescriptor fileDescriptor;
  private final String grpcService;
  private final Map<String, String> grpcMethods;

  private ServiceExport(
      ServiceDescription description,
      Map<String, String> protoFiles,
      FileDescriptorSet descriptorSet,
      Descriptors.FileDescriptor fileDescriptor,
      ProtoService grpc) {
    this.description = description;
    this.protoFiles = protoFiles;
    this.descriptorSet = descriptorSet;
    this.fileDescriptor = fileDescriptor;
    this.grpcService = fileDescriptor.getPackage() + "." + grpc.name();
    Map<String, String> methods = new LinkedHashMap<>();
    for (ProtoService.Rpc rpc : grpc.rpcs()) {
      methods.put(rpc.name(), rpc.method());
    }
    this.grpcMethods = java.util.Collections.unmodifiableMap(methods);
  }

  /**
   * The export of {@code service}.
   *
   * @throws IllegalStateException if its types cannot be expressed as protobuf messages, naming
   *     them
   */
  public static ServiceExport of(DescribedService service) {
    ProtoFile file = ServiceProtoBuilder.build(service);
    Map<String, String> texts = new LinkedHashMap<>();
    texts.put(file.name(), ProtoRenderer.text(file));
    Map<String, Descriptors.FileDescriptor> available = new LinkedHashMap<>();
    for (String imported : file.imports()) {
      if (imported.equals(ServiceProtoBuilder.VALUES_FILE)) {
        ProtoFile values = valuesFile();
        texts.put(values.name(), ProtoRenderer.text(values));
        available.put(values.name(), build(ProtoRenderer.descriptor(values), List.of()));
      } else if (imported.equals(ServiceProtoBuilder.TIMESTAMP_FILE)) {
        available.put(imported, Timestamp.getDescriptor().getFile());
      } else if (imported.equals(ServiceProtoBuilder.DURATION_FILE)) {
        available.put(imported, Duration.getDescriptor().getFile());
      }
    }
    for (Descriptors.Descriptor message : service.protobufMessages().values()) {
      available.put(message.getFile().getName(), message.getFile());
    }
    List<Descriptors.FileDescriptor> dependencies = new ArrayList<>();
    for (String imported : file.imports()) {
      dependencies.add(available.get(imported));
    }
    String envelope = envelopeText();
    if (envelope != null) {
      texts.put(ENVELOPE_FILE, envelope);
    }
    Descriptors.FileDescriptor built = build(ProtoRenderer.descriptor(file), dependencies);
    FileDescriptorSet.Builder set = FileDescriptorSet.newBuilder();
    addInDependencyOrder(built, set, new java.util.HashSet<>());
    return new ServiceExport(
        service.description(), orderedCopy(texts), set.build(), built, file.services().get(0));
  }

  private static Map<String, String> orderedCopy(Map<String, String> texts) {
    return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(texts));
  }

  private static Descriptors.FileDescriptor build(
      FileDescriptorProto proto, List<Descriptors.FileDescriptor> dependencies) {
    try {
      return Descriptors.FileDescriptor.buildFrom(
          proto, dependencies.toArray(new Descriptors.FileDescriptor[0]));
    } catch (Descriptors.DescriptorValidationException e) {
      throw new IllegalStateException(
          "the exported schema " + proto.getName() + " is not valid protobuf: " + e.getMessage(), e);
    }
  }

  private static void addInDependencyOrder(
      Descriptors.FileDescriptor file, FileDescriptorSet.Builder set, java.util.Set<String> added) {
    if (!added.add(file.getName())) {
      return;
    }
    for (Descriptors.FileDescriptor dependency : file.getDependencies()) {
      addInDependencyOrder(dependency, set, added);
    }
    set.addFile(file.toProto());
  }

  /** {@code rpcx/v1/values.proto}: the messages of RPCX's {@code date} and {@code datetime}. */
  private static ProtoFile valuesFile() {
    FieldDescriptorProto.Type int32 = FieldDescriptorProto.Type.TYPE_INT32;
    List<ProtoField> date = new ArrayList<>();
    List<ProtoField> dateTime = new ArrayList<>();
    String[] names = {"year", "month", "day", "hours", "minutes", "seconds", "nanos"};
    for (int i = 0; i < names.length; i++) {
      ProtoField field = ProtoField.of(names[i], i + 1, ProtoType.scalar(int32), false, null);
      if (i < 3) {
        date.add(field);
      }
      dateTime.add(field);
    }
    return new ProtoFile(
        ServiceProtoBuilder.VALUES_FILE,
        ServiceProtoBuilder.VALUES_PACKAGE,
        "Values RPCX carries as messages of its own (docs/PROTOCOL.md, section 2.1).",
        List.of(),
        List.of(
            ProtoMessage.of("Date", "RPCX date: Java's LocalDate.", date),
            ProtoMessage.of("DateTime", "RPCX datetime: Java's LocalDateTime.", dateTime)),
        List.of());
  }

  private static String envelopeText() {
    try (InputStream in = ServiceExport.class.getClassLoader().getResourceAsStream(ENVELOPE_FILE)) {
      return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public ServiceDescription description() {
    return description;
  }

  /**
   * The {@code .proto} files by name: the service's own first, then {@code rpcx/v1/values.proto}
   * if it needs it, then the envelope {@code rpcx/v1/rpcx.proto}. Files protoc bundles (the
   * well-known types) and the user's own protobuf files are imported, not included.
   */
  public Map<String, String> protoFiles() {
    return protoFiles;
  }

  /** The service's file and every file it imports, dependencies first. */
  public FileDescriptorSet fileDescriptorSet() {
    return descriptorSet;
  }

  /** The full name of the gRPC service the file defines: {@code package.Service}. */
  public String grpcService() {
    return grpcService;
  }

  /** The RPCX method each rpc of {@link #grpcService()} calls, by rpc name, in order. */
  public Map<String, String> grpcMethods() {
    return grpcMethods;
  }

  /**
   * The path gRPC calls {@code method} of {@code service} at, {@code /package.Service/method}, as
   * the export names it when none of its names collide: for a call known only by its names (a raw
   * call), whose service's other types are not known.
   */
  public static String grpcPathByName(String service, String method) {
    return "/" + ServiceProtoBuilder.grpcService(service) + "/" + ServiceProtoBuilder.identifier(method);
  }

  /** The service's file, resolved: its messages can build {@code DynamicMessage}s. */
  public Descriptors.FileDescriptor fileDescriptor() {
    return fileDescriptor;
  }
}
