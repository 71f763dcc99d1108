package io.rpcx.core.reflection;

import io.rpcx.annotation.Idempotent;
import io.rpcx.annotation.RPCXClient;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The reflection service of an RPCX server built with {@code RpcxServer.builder().reflection(true)}:
 * it lists the services the server publishes and describes each, and gives the {@code .proto} files
 * and the protobuf {@code FileDescriptorSet} of their wire format, for tools ({@code rpcx list},
 * {@code rpcx describe}, {@code rpcx call}) and for clients in other languages. It is published as
 * {@value #NAME} and called like any RPCX service, so the server's interceptors (authentication, say)
 * apply to it:
 *
 * <pre>{@code
 * ReflectionService reflection = client.create(ReflectionService.class);
 * for (String service : reflection.listServices()) {
 *   System.out.println(reflection.describe(service).orElseThrow().methods());
 * }
 * }</pre>
 */
@RPCXClient(name = ReflectionService.NAME)
@Idempotent
public interface ReflectionService {
  /** The published name of the reflection service. */
  String NAME = "rpcx.reflection.v1.Reflection";

  /** The published names of the server's services, sorted, this service included. */
  List<String> listServices();

  /** The service published as {@code service}, or empty when the server publishes none by that name. */
  Optional<ServiceDescription> describe(String service);

  /**
   * The {@code .proto} files describing {@code service}'s wire format, by file name: the service's
   * own file first, then the files it imports that protoc does not bundle. Empty when the server
   * publishes no such service.
   */
  Map<String, String> protoFiles(String service);

  /**
   * A serialized {@code google.protobuf.FileDescriptorSet} holding the service's file and every file
   * it imports (well-known types included), in dependency order; empty when the server publishes no
   * such service.
   */
  byte[] fileDescriptorSet(String service);
}
