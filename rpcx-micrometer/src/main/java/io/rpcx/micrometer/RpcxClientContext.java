package io.rpcx.micrometer;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.transport.RequestReplySenderContext;
import io.rpcx.client.CallResult;
import io.rpcx.client.ClientCall;

/**
 * The observation context of one attempt of a client call: the call (the carrier that trace headers
 * are written into, as metadata) and, once it ended, its result.
 */
public class RpcxClientContext extends RequestReplySenderContext<ClientCall, CallResult> {
  private final ClientCall call;
  /**
   * When {@link RpcxMeterObservationHandler} saw it start, by its registry's clock; read
   * where the call ends, on another thread.
   */
  private volatile long startedNanos;
  private final LowCardinalityKeyValues lowCardinality = new LowCardinalityKeyValues();

  /** The context of {@code call}, before it is sent. */
  public RpcxClientContext(ClientCall call) {
    super((carrier, key, value) -> carrier.putMetadata(RpcTags.metadataKey(key), value));
    this.call = call;
    setCarrier(call);
    setRemoteServiceName(call.method().service());
    // A URI: Micrometer Tracing reads the span's remote host and port from it, and logs a warning
    // on every call when it cannot parse it ("host:port" alone does not parse).
    String server = call.server();
    setRemoteServiceAddress(server == null ? null : RpcTags.serverUri(server));
  }

  /** The attempt observed. */
  public ClientCall call() {
    return call;
  }

  /** How the attempt ended, or {@code null} while it runs. */
  public CallResult result() {
    return getResponse();
  }

  void startedNanos(long nanos) {
    startedNanos = nanos;
  }

  long startedNanos() {
    return startedNanos;
  }

  // Key values are kept as the convention made them (LowCardinalityKeyValues): the four methods
  // that read or write Micrometer's map of them, and the bulk add that would fill it one by one.

  @Override
  public RpcxClientContext addLowCardinalityKeyValue(KeyValue keyValue) {
    lowCardinality.add(keyValue);
    return this;
  }

  @Override
  public RpcxClientContext addLowCardinalityKeyValues(KeyValues keyValues) {
    lowCardinality.add(keyValues);
    return this;
  }

  @Override
  public RpcxClientContext removeLowCardinalityKeyValue(String keyName) {
    lowCardinality.remove(keyName);
    return this;
  }

  @Override
  public KeyValues getLowCardinalityKeyValues() {
    return lowCardinality.get();
  }

  @Override
  public KeyValue getLowCardinalityKeyValue(String key) {
    return lowCardinality.get(key);
  }
}
