package io.rpcx.micrometer;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.transport.RequestReplyReceiverContext;
import io.rpcx.core.StatusCode;
import io.rpcx.server.CallInfo;
import io.rpcx.server.RefusedCall;

/**
 * The observation context of one call a server serves, or refused before serving it: its names,
 * whether the server publishes the method, the client's address, the carrier trace headers are read
 * from (the call's metadata), and once it ended, its status.
 */
public class RpcxServerContext extends RequestReplyReceiverContext<CallInfo, Object> {
  private final String service;
  private final String method;
  private final boolean methodKnown;
  private final String remoteAddress;
  private StatusCode status = StatusCode.OK;
  /**
   * When {@link RpcxMeterObservationHandler} saw it start, by its registry's clock; read
   * where the call ends, on another thread.
   */
  private volatile long startedNanos;
  private final LowCardinalityKeyValues lowCardinality = new LowCardinalityKeyValues();

  /** The context of a call about to be served. */
  public RpcxServerContext(CallInfo call) {
    super((carrier, key) -> carrier.metadata().get(RpcTags.metadataKey(key)));
    setCarrier(call);
    this.service = call.method().service();
    this.method = call.method().method();
    this.methodKnown = true;
    this.remoteAddress = call.remoteAddress();
  }

  /** The context of a call refused before it was served. */
  public RpcxServerContext(RefusedCall call) {
    super((carrier, key) -> null);
    this.service = call.service();
    this.method = call.method();
    this.methodKnown = call.isMethodKnown();
    this.remoteAddress = call.remoteAddress();
    this.status = call.status();
  }

  /** The service name the request carried. */
  public String service() {
    return service;
  }

  /** The method name the request carried. */
  public String method() {
    return method;
  }

  /** Whether the server publishes the method; unknown names are not used as tags. */
  public boolean isMethodKnown() {
    return methodKnown;
  }

  /** The client's address. */
  public String remoteAddress() {
    return remoteAddress;
  }

  /** How the call ended ({@link StatusCode#OK} until it failed). */
  public StatusCode status() {
    return status;
  }

  /** Records how the call ended. */
  public void status(StatusCode status) {
    this.status = status;
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
  public RpcxServerContext addLowCardinalityKeyValue(KeyValue keyValue) {
    lowCardinality.add(keyValue);
    return this;
  }

  @Override
  public RpcxServerContext addLowCardinalityKeyValues(KeyValues keyValues) {
    lowCardinality.add(keyValues);
    return this;
  }

  @Override
  public RpcxServerContext removeLowCardinalityKeyValue(String keyName) {
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
