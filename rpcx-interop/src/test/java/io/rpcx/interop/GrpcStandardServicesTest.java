package io.rpcx.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import com.google.protobuf.DynamicMessage;
import interop.InteropGrpc;
import interop.InteropOuterClass.SleepRequest;
import io.grpc.CallOptions;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.reflection.v1.ServiceResponse;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * gRPC's standard services on RPCX's port, read with grpc-java's own stubs: health ({@code Check}
 * and {@code Watch}, turning {@code NOT_SERVING} when a graceful stop begins) and reflection (v1
 * and v1alpha), through which a client with no file at all describes and calls a service.
 */
@Timeout(60)
class GrpcStandardServicesTest {

  private static HealthCheckRequest check(String service) {
    return HealthCheckRequest.newBuilder().setService(service).build();
  }

  @Test
  void healthIsServingForTheServerAndEachServiceByEitherName() {
    try (GrpcPeer peer = GrpcPeer.start()) {
      HealthGrpc.HealthBlockingStub health =
          HealthGrpc.newBlockingStub(peer.channel).withDeadlineAfter(10, TimeUnit.SECONDS);
      for (String service : new String[] {"", "interop", "interop.Interop"}) {
        assertEquals(ServingStatus.SERVING, health.check(check(service)).getStatus(), service);
      }
      StatusRuntimeException unknown =
          assertThrows(StatusRuntimeException.class, () -> health.check(check("nope")));
      assertEquals(Status.Code.NOT_FOUND, unknown.getStatus().getCode());
    }
  }

  @Test
  void aWatchSeesNotServingWhenAGracefulStopBeginsAndEndsBeforeTheCallsInFlightDo()
      throws Exception {
    GrpcPeer peer = GrpcPeer.start(InteropServer.builder(0).shutdownGracePeriod(Duration.ofSeconds(30)));
    try {
      BlockingQueue<Object> watched = new LinkedBlockingQueue<>();
      HealthGrpc.newStub(peer.channel)
          .watch(
              check(""),
              new StreamObserver<HealthCheckResponse>() {
                @Override
                public void onNext(HealthCheckResponse response) {
                  watched.add(response.getStatus());
                }

                @Override
                public void onError(Throwable failure) {
                  watched.add(failure);
                }

                @Override
                public void onCompleted() {
                  watched.add("completed");
                }
              });
      assertEquals(ServingStatus.SERVING, watched.poll(10, TimeUnit.SECONDS));

      // A call in flight when the stop begins: the stop waits for it, not for the watch.
      CompletableFuture<String> inFlight =
          CompletableFuture.supplyAsync(
              () ->
                  InteropGrpc.newBlockingStub(peer.channel)
                      .withDeadlineAfter(20, TimeUnit.SECONDS)
                      .sleep(SleepRequest.newBuilder().setMillis(1_500).build())
                      .getValue());
      GrpcStreamsTest.await(() -> peer.server.stats().callsInFlight() == 1, "the call runs");
      long stopStarted = System.nanoTime();
      CompletableFuture<Void> stopped = CompletableFuture.runAsync(peer.server::stop);

      assertEquals(ServingStatus.NOT_SERVING, watched.poll(10, TimeUnit.SECONDS));
      Object end = watched.poll(10, TimeUnit.SECONDS);
      StatusRuntimeException ended = assertInstanceOf(StatusRuntimeException.class, end);
      assertEquals(Status.Code.UNAVAILABLE, ended.getStatus().getCode());
      assertFalse(inFlight.isDone(), "the watch ended before the call in flight did");

      assertEquals("slept", inFlight.get(20, TimeUnit.SECONDS));
      stopped.get(20, TimeUnit.SECONDS);
      long stopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopStarted);
      assertTrue(stopMillis < 10_000, "the stop waited for the call, not its grace period: " + stopMillis);
    } finally {
      peer.close();
    }
  }

  @Test
  void reflectionListsTheServicesAndAClientWithNoFileCallsOne() throws Exception {
    try (GrpcPeer peer = GrpcPeer.start()) {
      ServerReflectionGrpc.ServerReflectionStub reflection =
          ServerReflectionGrpc.newStub(peer.channel).withDeadlineAfter(10, TimeUnit.SECONDS);

      List<String> services = new ArrayList<>();
      for (ServiceResponse service :
          ask(reflection, ServerReflectionRequest.newBuilder().setListServices("").build())
              .getListServicesResponse()
              .getServiceList()) {
        services.add(service.getName());
      }
      assertTrue(services.contains("interop.Interop"), services.toString());
      assertTrue(services.contains("grpc.health.v1.Health"), services.toString());
      assertTrue(services.contains("grpc.reflection.v1.ServerReflection"), services.toString());

      // As grpcurl does: the file defining the symbol, with its dependencies, then a call built
      // from the descriptors alone.
      List<ByteString> files =
          ask(
                  reflection,
                  ServerReflectionRequest.newBuilder().setFileContainingSymbol("interop.Interop").build())
              .getFileDescriptorResponse()
              .getFileDescriptorProtoList();
      FileDescriptor file = build(files, "interop.proto");
      ServiceDescriptor service = file.findServiceByName("Interop");
      MethodDescriptor add = service.findMethodByName("add");
      Descriptor request = add.getInputType();
      DynamicMessage arguments =
          DynamicMessage.newBuilder(request)
              .setField(request.findFieldByName("a"), 40)
              .setField(request.findFieldByName("b"), 2L)
              .build();
      io.grpc.MethodDescriptor<DynamicMessage, DynamicMessage> method =
          io.grpc.MethodDescriptor.<DynamicMessage, DynamicMessage>newBuilder()
              .setType(MethodType.UNARY)
              .setFullMethodName("interop.Interop/add")
              .setRequestMarshaller(ProtoUtils.marshaller(DynamicMessage.getDefaultInstance(request)))
              .setResponseMarshaller(
                  ProtoUtils.marshaller(DynamicMessage.getDefaultInstance(add.getOutputType())))
              .build();
      DynamicMessage reply =
          ClientCalls.blockingUnaryCall(
              peer.channel, method, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), arguments);
      assertEquals(42L, reply.getField(add.getOutputType().findFieldByName("value")));
    }
  }

  @Test
  void reflectionV1AlphaAnswersTheToolsThatStillUseIt() throws Exception {
    try (GrpcPeer peer = GrpcPeer.start()) {
      @SuppressWarnings("deprecation")
      io.grpc.reflection.v1alpha.ServerReflectionGrpc.ServerReflectionStub reflection =
          io.grpc.reflection.v1alpha.ServerReflectionGrpc.newStub(peer.channel)
              .withDeadlineAfter(10, TimeUnit.SECONDS);
      CompletableFuture<io.grpc.reflection.v1alpha.ServerReflectionResponse> answer =
          new CompletableFuture<>();
      StreamObserver<io.grpc.reflection.v1alpha.ServerReflectionRequest> requests =
          reflection.serverReflectionInfo(completing(answer));
      requests.onNext(
          io.grpc.reflection.v1alpha.ServerReflectionRequest.newBuilder()
              .setFileByFilename("interop.proto")
              .build());
      requests.onCompleted();
      FileDescriptorProto file =
          FileDescriptorProto.parseFrom(
              answer.get(10, TimeUnit.SECONDS).getFileDescriptorResponse().getFileDescriptorProto(0));
      assertEquals("interop", file.getPackage());
      assertTrue(file.getServiceList().stream().anyMatch(s -> s.getName().equals("Interop")));
    }
  }

  @Test
  void anUnknownSymbolIsNotFoundInTheAnswerNotAFailedStream() throws Exception {
    try (GrpcPeer peer = GrpcPeer.start()) {
      ServerReflectionResponse answer =
          ask(
              ServerReflectionGrpc.newStub(peer.channel).withDeadlineAfter(10, TimeUnit.SECONDS),
              ServerReflectionRequest.newBuilder().setFileContainingSymbol("no.such.Thing").build());
      assertEquals(Status.Code.NOT_FOUND.value(), answer.getErrorResponse().getErrorCode());
    }
  }

  @Test
  void withoutTheSwitchesNeitherServiceAnswers() {
    try (GrpcPeer peer =
        GrpcPeer.start(InteropServer.builder(0).grpcHealth(false).grpcReflection(false))) {
      StatusRuntimeException health =
          assertThrows(
              StatusRuntimeException.class,
              () ->
                  HealthGrpc.newBlockingStub(peer.channel)
                      .withDeadlineAfter(10, TimeUnit.SECONDS)
                      .check(check("")));
      assertEquals(Status.Code.UNIMPLEMENTED, health.getStatus().getCode());
      CompletableFuture<ServerReflectionResponse> answer = new CompletableFuture<>();
      StreamObserver<ServerReflectionRequest> requests =
          ServerReflectionGrpc.newStub(peer.channel)
              .withDeadlineAfter(10, TimeUnit.SECONDS)
              .serverReflectionInfo(completing(answer));
      requests.onNext(ServerReflectionRequest.newBuilder().setListServices("").build());
      requests.onCompleted();
      Exception refused = assertThrows(Exception.class, () -> answer.get(10, TimeUnit.SECONDS));
      assertEquals(
          Status.Code.UNIMPLEMENTED,
          assertInstanceOf(StatusRuntimeException.class, refused.getCause()).getStatus().getCode());
    }
  }

  private static ServerReflectionResponse ask(
      ServerReflectionGrpc.ServerReflectionStub reflection, ServerReflectionRequest request)
      throws Exception {
    CompletableFuture<ServerReflectionResponse> answer = new CompletableFuture<>();
    StreamObserver<ServerReflectionRequest> requests =
        reflection.serverReflectionInfo(completing(answer));
    requests.onNext(request);
    requests.onCompleted();
    return answer.get(10, TimeUnit.SECONDS);
  }

  private static <T> StreamObserver<T> completing(CompletableFuture<T> answer) {
    return new StreamObserver<T>() {
      @Override
      public void onNext(T value) {
        answer.complete(value);
      }

      @Override
      public void onError(Throwable failure) {
        answer.completeExceptionally(failure);
      }

      @Override
      public void onCompleted() {
        answer.completeExceptionally(new AssertionError("completed without an answer"));
      }
    };
  }

  /** The file {@code name} among {@code files}, built with the others it depends on. */
  private static FileDescriptor build(List<ByteString> files, String name) throws Exception {
    Map<String, FileDescriptorProto> protos = new HashMap<>();
    for (ByteString file : files) {
      FileDescriptorProto proto = FileDescriptorProto.parseFrom(file);
      protos.put(proto.getName(), proto);
    }
    return build(protos, name, new HashMap<>());
  }

  private static FileDescriptor build(
      Map<String, FileDescriptorProto> protos, String name, Map<String, FileDescriptor> built)
      throws Exception {
    FileDescriptor done = built.get(name);
    if (done != null) {
      return done;
    }
    FileDescriptorProto proto = protos.get(name);
    assertTrue(proto != null, "reflection sent no file " + name + " (has " + protos.keySet() + ")");
    List<FileDescriptor> dependencies = new ArrayList<>();
    for (String dependency : proto.getDependencyList()) {
      dependencies.add(build(protos, dependency, built));
    }
    FileDescriptor file =
        FileDescriptor.buildFrom(proto, dependencies.toArray(new FileDescriptor[0]));
    built.put(name, file);
    return file;
  }
}
