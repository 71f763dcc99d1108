package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.NotFoundException;
import io.rpcx.core.UnauthenticatedException;
import io.rpcx.core.reflection.MethodDescription;
import io.rpcx.core.reflection.ParameterDescription;
import io.rpcx.core.reflection.ProtoSchemas;
import io.rpcx.core.reflection.ReflectionService;
import io.rpcx.core.reflection.ServiceDescription;
import io.rpcx.server.RpcxServer;
import io.rpcx.server.ServerInterceptors;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server built with {@code reflection(true)} lists and describes its services over RPCX itself,
 * through its interceptors like any call; without it, it has no reflection service.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReflectionTest {
  private static final String TOKEN = "reflection-t0ken";

  private static RpcxServer server(boolean reflection, boolean authenticated) {
    RpcxServer.Builder builder =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .service(new EchoService.Impl())
            .service(new ValuesService.Impl())
            .reflection(reflection);
    if (authenticated) {
      builder.intercept(ServerInterceptors.bearerToken(TOKEN::equals));
    }
    return builder.build().start();
  }

  @Test
  void listsEveryServiceItPublishesItselfIncluded() {
    RpcxServer server = server(true, false);
    try (RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      ReflectionService reflection = client.create(ReflectionService.class);
      assertEquals(List.of("echo", "rpcx.reflection.v1.Reflection", "values"), reflection.listServices());
    } finally {
      server.stop();
    }
  }

  @Test
  void describesAServiceAsItsOwnModelCarriesIt() {
    RpcxServer server = server(true, false);
    try (RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      ReflectionService reflection = client.create(ReflectionService.class);
      ServiceDescription echo = reflection.describe("echo").orElseThrow();
      assertEquals(List.of("echo", "echoAsync", "shout"), echo.methods().stream().map(MethodDescription::name).toList());
      MethodDescription shout = echo.method("shout");
      assertEquals("upperCase", shout.javaName());
      assertEquals(List.of(new ParameterDescription("text", "string")), shout.parameters());
      assertEquals("string", shout.resultType());
      assertTrue(echo.method("echoAsync").asynchronous());
      // The server describes what it serves; a schema exported at build time says the same.
      ServiceDescription values = reflection.describe("values").orElseThrow();
      assertEquals(ProtoSchemas.of(ValuesService.Impl.class).describe("values"), values);
      assertEquals(Optional.empty(), reflection.describe("nowhere"));
    } finally {
      server.stop();
    }
  }

  @Test
  void givesTheProtoFilesAndDescriptorSetOfAService() throws Exception {
    RpcxServer server = server(true, false);
    try (RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      ReflectionService reflection = client.create(ReflectionService.class);
      Map<String, String> files = reflection.protoFiles("values");
      assertEquals(ProtoSchemas.of(ValuesService.Impl.class).protoFiles("values"), files);
      assertTrue(files.get("values.proto").contains("package values;"), files.get("values.proto"));
      FileDescriptorSet set = FileDescriptorSet.parseFrom(reflection.fileDescriptorSet("values"));
      assertEquals(
          "values.proto",
          set.getFileList().get(set.getFileCount() - 1).getName(),
          "the service's own file comes after the files it imports");
      assertEquals(
          ProtoSchemas.of(ValuesService.Impl.class).fileDescriptorSet("values").getFileList().stream()
              .map(FileDescriptorProto::getName)
              .toList(),
          set.getFileList().stream().map(FileDescriptorProto::getName).toList());
      assertEquals(Map.of(), reflection.protoFiles("nowhere"));
      assertEquals(0, reflection.fileDescriptorSet("nowhere").length);
    } finally {
      server.stop();
    }
  }

  @Test
  void goesThroughTheServersInterceptorsLikeAnyCall() {
    RpcxServer server = server(true, true);
    try (RpcxClient anonymous = RpcxClient.builder().target("127.0.0.1", server.port()).build();
        RpcxClient trusted =
            RpcxClient.builder().target("127.0.0.1", server.port()).bearerToken(TOKEN).build()) {
      UnauthenticatedException e =
          assertThrows(
              UnauthenticatedException.class,
              () -> anonymous.create(ReflectionService.class).listServices());
      assertTrue(e.getMessage().startsWith("rpcx.reflection.v1.Reflection/listServices failed on 127.0.0.1:"), e.getMessage());
      assertEquals(3, trusted.create(ReflectionService.class).listServices().size());
    } finally {
      server.stop();
    }
  }

  @Test
  void aServerWithoutReflectionHasNoReflectionService() {
    RpcxServer server = server(false, false);
    try (RpcxClient client = RpcxClient.builder().target("127.0.0.1", server.port()).build()) {
      NotFoundException e =
          assertThrows(NotFoundException.class, () -> client.create(ReflectionService.class).listServices());
      assertEquals(
          "rpcx.reflection.v1.Reflection/listServices failed on 127.0.0.1:" + server.port()
              + ": unknown service 'rpcx.reflection.v1.Reflection'",
          e.getMessage());
    } finally {
      server.stop();
    }
  }
}
