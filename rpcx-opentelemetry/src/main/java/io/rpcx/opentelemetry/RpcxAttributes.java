package io.rpcx.opentelemetry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.metrics.LongHistogram;
import io.opentelemetry.api.metrics.Meter;
import java.util.List;
import java.util.Locale;

/**
 * The attributes of RPCX spans and metrics, after the OpenTelemetry semantic conventions for RPC
 * (release candidate since semconv 1.40).
 */
public final class RpcxAttributes {
  /** Always {@value #SYSTEM}. */
  public static final AttributeKey<String> RPC_SYSTEM_NAME =
      AttributeKey.stringKey("rpc.system.name");

  /** {@code service/method}, or {@value #OTHER} for a method the server does not publish. */
  public static final AttributeKey<String> RPC_METHOD = AttributeKey.stringKey("rpc.method");

  /** {@code OK} or the name of the {@code StatusCode} the call failed with. */
  public static final AttributeKey<String> RPC_STATUS_CODE =
      AttributeKey.stringKey("rpc.status_code");

  /** The status name of a failed call; absent on success. */
  public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

  /** The server's host, on the client's spans and metrics. */
  public static final AttributeKey<String> SERVER_ADDRESS =
      AttributeKey.stringKey("server.address");

  /** The server's port, on the client's spans and metrics. */
  public static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");

  /**
   * The messages a stream call sent (docs/STREAMING.md), on the spans of the side that sends a
   * stream: the client's for a {@code Flow.Publisher} argument, the server's for a stream result.
   */
  public static final AttributeKey<Long> STREAM_MESSAGES_SENT =
      AttributeKey.longKey("rpcx.stream.messages.sent");

  /** The messages a stream call received, on the spans of the side that receives a stream. */
  public static final AttributeKey<Long> STREAM_MESSAGES_RECEIVED =
      AttributeKey.longKey("rpcx.stream.messages.received");

  /** The client's address, on the server's spans. */
  public static final AttributeKey<String> NETWORK_PEER_ADDRESS =
      AttributeKey.stringKey("network.peer.address");

  /** The value of {@link #RPC_SYSTEM_NAME}. */
  public static final String SYSTEM = "rpcx";

  /** The value of {@link #RPC_METHOD} for a method the server does not publish. */
  public static final String OTHER = "_OTHER";

  /** The name of the client's duration histogram, in seconds. */
  public static final String CLIENT_CALL_DURATION = "rpc.client.call.duration";

  /** The name of the server's duration histogram, in seconds. */
  public static final String SERVER_CALL_DURATION = "rpc.server.call.duration";

  /**
   * The histogram of the messages a client sent per stream call that has a {@code Flow.Publisher}
   * argument (semconv 1.37 and before; see docs/OBSERVABILITY.md).
   */
  public static final String CLIENT_REQUESTS_PER_RPC = "rpc.client.requests_per_rpc";

  /** The histogram of the messages a client received per stream call with a stream result. */
  public static final String CLIENT_RESPONSES_PER_RPC = "rpc.client.responses_per_rpc";

  /** The histogram of the messages a server received per stream call with a stream argument. */
  public static final String SERVER_REQUESTS_PER_RPC = "rpc.server.requests_per_rpc";

  /** The histogram of the messages a server sent per stream call with a stream result. */
  public static final String SERVER_RESPONSES_PER_RPC = "rpc.server.responses_per_rpc";

  /** The message histograms' bucket boundaries: 0 to a million, 1-2-5 steps. */
  static final List<Long> MESSAGE_BUCKETS =
      List.of(
          0L, 1L, 2L, 5L, 10L, 20L, 50L, 100L, 200L, 500L, 1_000L, 2_000L, 5_000L, 10_000L, 20_000L,
          50_000L, 100_000L, 200_000L, 500_000L, 1_000_000L);

  /** The histograms' bucket boundaries, in seconds: 0.5 ms to 10 s. */
  static final List<Double> BUCKETS =
      List.of(
          0.0005, 0.001, 0.0025, 0.005, 0.0075, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0,
          2.5, 5.0, 7.5, 10.0);

  /** The instrumentation scope of RPCX's spans and metrics. */
  static final String SCOPE = "io.rpcx.opentelemetry";

  private RpcxAttributes() {}

  /** A histogram of stream messages per call, {@code {count}} as the conventions had it. */
  static LongHistogram messagesPerCall(Meter meter, String name, String description) {
    return meter
        .histogramBuilder(name)
        .ofLongs()
        .setUnit("{count}")
        .setDescription(description)
        .setExplicitBucketBoundariesAdvice(MESSAGE_BUCKETS)
        .build();
  }

  /** RPCX metadata keys are lower-case; propagators may use any case. */
  static String metadataKey(String key) {
    return key.toLowerCase(Locale.ROOT);
  }
}
