package io.rpcx.client.internal.cluster;

import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.client.internal.call.ServerLink;
import io.rpcx.core.UnavailableException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/** A server channel that records calls (or hands them on) and can be made to refuse them. */
final class TestChannel implements ServerLink {
  final String address;
  final List<PendingCall> sent = new ArrayList<>();
  volatile boolean accepting = true;
  volatile boolean retired;
  volatile int reconnects;
  /** Whether probes are answered (else they fail, as against a server that is down). */
  volatile boolean answersProbes;
  final AtomicInteger probes = new AtomicInteger();

  private final Consumer<PendingCall> onSend;

  /** A channel that records the calls sent in {@link #sent} (not thread-safe). */
  TestChannel(String address) {
    this.address = address;
    this.onSend = sent::add;
  }

  /** A channel that hands each call sent to {@code onSend} instead of recording it. */
  TestChannel(String address, Consumer<PendingCall> onSend) {
    this.address = address;
    this.onSend = onSend;
  }

  @Override
  public void send(PendingCall call) {
    onSend.accept(call);
  }

  @Override
  public String address() {
    return address;
  }

  @Override
  public boolean acceptsCalls() {
    return accepting;
  }

  @Override
  public void reconnectNow() {
    reconnects++;
  }

  @Override
  public void retire() {
    retired = true;
  }

  @Override
  public CompletableFuture<Void> probe() {
    probes.incrementAndGet();
    return answersProbes
        ? CompletableFuture.completedFuture(null)
        : CompletableFuture.failedFuture(
            UnavailableException.notProcessed("connection refused"));
  }
}
