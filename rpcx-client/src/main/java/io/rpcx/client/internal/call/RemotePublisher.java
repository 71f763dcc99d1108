package io.rpcx.client.internal.call;

import java.util.Objects;
import java.util.concurrent.Flow;

/**
 * What a proxy returns for a server-stream (or bidirectional) method: a cold publisher whose every
 * subscriber makes a call of its own ({@link ServerStreamCall}), sent when it first requests
 * elements. The deadline of all of them counts from the method call that made the publisher.
 * Thread-safe.
 */
final class RemotePublisher implements Flow.Publisher<Object> {
  private final ClientMethod method;
  private final Invocation invocation;
  /** Whether each call uploads the invocation's stream argument: a bidirectional stream. */
  private final boolean upload;

  RemotePublisher(ClientMethod method, Invocation invocation, boolean upload) {
    this.method = method;
    this.invocation = invocation;
    this.upload = upload;
  }

  @Override
  public void subscribe(Flow.Subscriber<? super Object> subscriber) {
    Objects.requireNonNull(subscriber, "subscriber"); // rule 1.9
    new ServerStreamCall(method, invocation, upload).subscribe(subscriber);
  }

  @Override
  public String toString() {
    return "RPCX server stream " + method.model().displayName();
  }
}
