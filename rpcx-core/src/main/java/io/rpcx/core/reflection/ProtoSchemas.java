package io.rpcx.core.reflection;

import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.core.internal.codec.CodecRegistry;
import io.rpcx.core.internal.model.ServiceModel;
import io.rpcx.core.internal.model.ServiceModels;
import io.rpcx.core.internal.model.StandardCodecs;
import io.rpcx.core.internal.reflection.ServiceDescriptions;
import io.rpcx.core.internal.reflection.ServiceExport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The protobuf schema of RPCX services, for clients in other languages and for tools: per service a
 * {@code .proto} file with a message per POJO, record and collection shape (numbered as RPCX numbers
 * them on the wire) and a request and a reply message per method, and a binary {@code
 * FileDescriptorSet}. Built from the same model and codecs that carry the values, so it describes
 * exactly the bytes RPCX writes; docs/PROTOCOL.md, section 4, explains how another language calls
 * RPCX with it. Immutable and thread-safe.
 *
 * <pre>{@code
 * ProtoSchemas schemas = ProtoSchemas.of(OrderService.class);
 * schemas.writeTo(Path.of("target/proto"));            // orders.proto, rpcx/v1/*.proto
 * FileDescriptorSet set = schemas.fileDescriptorSet("orders");
 * }</pre>
 *
 * <p>From a build, {@code java -cp ... io.rpcx.core.reflection.ProtoSchemas OUTPUT_DIR CLASS...}
 * writes the files of the named classes.
 */
public final class ProtoSchemas {
  private final Map<String, ServiceExport> services;

  private ProtoSchemas(Map<String, ServiceExport> services) {
    this.services = services;
  }

  /**
   * The schemas of {@code types}: client interfaces annotated {@link RPCXClient} or implementation
   * classes annotated {@link RPCXServer}.
   *
   * @throws IllegalArgumentException if a type is neither, or breaks a rule RPCX checks at
   *     start-up, naming the class and method
   */
  public static ProtoSchemas of(Class<?>... types) {
    CodecRegistry codecs = StandardCodecs.registry();
    Map<String, ServiceExport> services = new LinkedHashMap<>();
    for (Class<?> type : types) {
      ServiceModel model;
      if (type.isAnnotationPresent(RPCXClient.class)) {
        model = ServiceModels.forClient(type, codecs);
      } else if (type.isAnnotationPresent(RPCXServer.class)) {
        model = ServiceModels.forServer(type, codecs);
      } else {
        throw new IllegalArgumentException(
            type.getName() + " is neither an @RPCXClient interface nor an @RPCXServer class");
      }
      ServiceExport export = ServiceExport.of(ServiceDescriptions.describe(model));
      String file = export.protoFiles().keySet().iterator().next();
      for (ServiceExport other : services.values()) {
        if (other.protoFiles().containsKey(file)) {
          throw new IllegalArgumentException(
              "services '" + other.description().name() + "' and '" + model.name()
                  + "' would both be exported as " + file + ": rename one");
        }
      }
      services.put(model.name(), export);
    }
    return new ProtoSchemas(Map.copyOf(services));
  }

  /** The published names of the services, sorted. */
  public List<String> services() {
    List<String> names = new ArrayList<>(services.keySet());
    names.sort(null);
    return names;
  }

  /** The description of {@code service}, as a server's reflection service gives it. */
  public ServiceDescription describe(String service) {
    return export(service).description();
  }

  /**
   * The {@code .proto} files of {@code service} by file name: its own file first (its package as a
   * path: {@code shop.v1.Orders} is {@code shop/v1/Orders.proto}), then {@code
   * rpcx/v1/values.proto} if it carries dates, then the envelope, {@code rpcx/v1/rpcx.proto}.
   */
  public Map<String, String> protoFiles(String service) {
    return export(service).protoFiles();
  }

  /** The {@code FileDescriptorSet} of {@code service}: its file and every file it imports. */
  public FileDescriptorSet fileDescriptorSet(String service) {
    return export(service).fileDescriptorSet();
  }

  /** The resolved file of {@code service}, to build {@code DynamicMessage}s from. */
  public Descriptors.FileDescriptor fileDescriptor(String service) {
    return export(service).fileDescriptor();
  }

  /**
   * Writes every service's {@code .proto} files under {@code directory}, and its descriptor set as
   * {@code <service file>.pb} beside them.
   */
  public void writeTo(Path directory) throws IOException {
    for (ServiceExport export : services.values()) {
      for (Map.Entry<String, String> file : export.protoFiles().entrySet()) {
        Path path = directory.resolve(file.getKey()).toAbsolutePath();
        Files.createDirectories(path.getParent());
        Files.writeString(path, file.getValue(), StandardCharsets.UTF_8);
      }
      String own = export.protoFiles().keySet().iterator().next();
      Files.write(directory.resolve(own.replaceAll("\\.proto$", ".pb")), export.fileDescriptorSet().toByteArray());
    }
  }

  private ServiceExport export(String service) {
    ServiceExport export = services.get(service);
    if (export == null) {
      throw new IllegalArgumentException(
          "no service '" + service + "' (these schemas describe: " + String.join(", ", services()) + ")");
    }
    return export;
  }

  /**
   * Writes the schemas of the named classes: {@code ProtoSchemas OUTPUT_DIR CLASS...}.
   *
   * @param args the output directory, then fully qualified class names
   */
  public static void main(String[] args) throws IOException, ClassNotFoundException {
    if (args.length < 2) {
      System.err.println("usage: ProtoSchemas OUTPUT_DIR CLASS...  (classes annotated @RPCXClient or @RPCXServer)");
      System.exit(2);
    }
    List<Class<?>> types = new ArrayList<>();
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    for (int i = 1; i < args.length; i++) {
      types.add(Class.forName(args[i], false, loader));
    }
    of(types.toArray(new Class<?>[0])).writeTo(Path.of(args[0]));
  }
}
