package io.rpcx.client.internal.call;

import java.util.Objects;
import java.util.concurrent.Flow;

/**
 * What a proxy returns for a server-stream method: a cold publisher whose every subscriber makes a
 * call of its own ({@link StreamCall}), sent when it first requests elements. The deadline of all
 * of them counts from the method call that made the publisher. Thread-safe.
 */
final class RemotePublisher implements Flow.Publisher<Object> {
  private final ClientMethod method;
  private final Invocation invocation;

  RemotePublisher(ClientMethod method, Invocation invocation) {
    this.method = method;
    this.invocation = invocation;
  }

  @Override
  public void subscribe(Flow.Subscriber<? super Object> subscriber) {
    Objects.requireNonNull(subscriber, "subscriber"); // rule 1.9
    new StreamCall(method, invocation, subscriber).subscribe();
  }

  @Override
  public String toString() {
    return "RPCX server stream " + method.model().displayName();
  }
}
