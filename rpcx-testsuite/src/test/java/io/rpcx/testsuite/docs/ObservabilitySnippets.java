package io.rpcx.testsuite.docs;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.rpcx.client.CallResult;
import io.rpcx.client.ClientCall;
import io.rpcx.client.ClientInterceptor;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.StatusCode;
import io.rpcx.micrometer.RpcxClientMeters;
import io.rpcx.micrometer.RpcxClientMetrics;
import io.rpcx.micrometer.RpcxClientObservations;
import io.rpcx.micrometer.RpcxMeterObservationHandler;
import io.rpcx.micrometer.RpcxServerMeters;
import io.rpcx.micrometer.RpcxServerMetrics;
import io.rpcx.micrometer.RpcxServerObservations;
import io.rpcx.micrometer.RpcxStreamMessagesHandler;
import io.rpcx.opentelemetry.RpcxClientTelemetry;
import io.rpcx.opentelemetry.RpcxServerTelemetry;
import io.rpcx.server.RpcxServer;

/**
 * The Java snippets of docs/OBSERVABILITY.md, each line as the doc has it, in code that compiles
 * ({@link DocSnippetsTest}). Never run: the doc's addresses are examples.
 */
final class ObservabilitySnippets {
  private ObservabilitySnippets() {}

  /** Where the client interceptor of the doc gets its tokens. */
  interface TokenSource {
    String current();

    void refresh();
  }

  // "Client interceptors"

  static RpcxClient tokens(TokenSource tokenSource) {
    ClientInterceptor tokens = new ClientInterceptor() {
      @Override
      public void onStart(ClientCall call) {
        call.putMetadata("authorization", "Bearer " + tokenSource.current());
      }

      @Override
      public void onEnd(ClientCall call, CallResult result) {
        if (result.status() == StatusCode.UNAUTHENTICATED) {
          tokenSource.refresh();
        }
      }
    };
    RpcxClient client = RpcxClient.builder().target("orders", 9000).intercept(tokens).build();
    return client;
  }

  // "rpcx-micrometer"

  static RpcxClient observations(MeterRegistry meters) {
    ObservationRegistry observations = ObservationRegistry.create();
    observations.observationConfig().observationHandler(
        new FirstMatchingCompositeObservationHandler(
            new RpcxMeterObservationHandler(meters),        // RPCX's calls
            new DefaultMeterObservationHandler(meters)));   // every other observation

    RpcxServer.Builder builder = RpcxServer.builder().port(9000).scan("com.acme.orders");
    RpcxServerObservations.instrument(builder, observations);       // interceptor + refusal listener
    RpcxServer server = builder.build().start();
    new RpcxServerMetrics(server).bindTo(meters);

    RpcxClient client = RpcxClient.builder()
        .target("orders", 9000)
        .intercept(RpcxClientObservations.interceptor(observations))
        .build();
    new RpcxClientMetrics(client).bindTo(meters);
    return client;
  }

  static RpcxClient meters(MeterRegistry meters) {
    RpcxServer server =
        RpcxServerMeters.instrument(RpcxServer.builder().port(9000).scan("com.acme.orders"), meters)
            .build()
            .start();
    RpcxClient client = RpcxClient.builder()
        .target("orders", 9000)
        .intercept(RpcxClientMeters.interceptor(meters))
        .build();
    server.stop();
    return client;
  }

  static void streamMessages(ObservationRegistry observations, MeterRegistry meters) {
    observations.observationConfig()
        .observationHandler(new DefaultMeterObservationHandler(meters))
        .observationHandler(new RpcxStreamMessagesHandler(meters));
  }

  // "rpcx-opentelemetry"

  static AutoCloseable openTelemetry(OpenTelemetry openTelemetry) {
    RpcxServer server =
        RpcxServerTelemetry.instrument(RpcxServer.builder().port(9000).scan("com.acme"), openTelemetry)
            .build().start();
    RpcxClient client = RpcxClient.builder()
        .target("orders", 9000)
        .intercept(RpcxClientTelemetry.create(openTelemetry))
        .build();
    AutoCloseable gauges = RpcxClientTelemetry.registerGauges(client, openTelemetry);
    server.stop();
    return gauges;
  }
}
