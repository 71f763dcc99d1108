package io.rpcx.client.internal.cluster;

import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.client.internal.call.ServerChannel;
import java.util.ArrayList;
import java.util.List;

/** A server channel that records calls and can be made to refuse them. */
final class TestChannel implements ServerChannel {
  final String address;
  final List<PendingCall> sent = new ArrayList<>();
  volatile boolean accepting = true;
  volatile boolean retired;
  volatile int reconnects;

  TestChannel(String address) {
    this.address = address;
  }

  @Override
  public void send(PendingCall call) {
    sent.add(call);
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
}
