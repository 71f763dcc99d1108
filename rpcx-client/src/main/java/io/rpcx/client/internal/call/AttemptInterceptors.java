package io.rpcx.client.internal.call;

import io.rpcx.client.CallResult;
import io.rpcx.client.ClientCall;
import io.rpcx.client.ClientInterceptor;
import io.rpcx.core.InternalErrorException;
import io.rpcx.core.MethodDescriptor;
import io.rpcx.core.RpcxContext;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.config.Checks;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's interceptors around one attempt, and the attempt as they see it ({@link
 * ClientCall}): runs their {@link ClientInterceptor#onStart} before the attempt is sent (where they
 * may add metadata or fail it) and their {@link ClientInterceptor#onEnd}, in reverse order, once it
 * ended; every interceptor that started is ended, and one that ends an attempt never sent is
 * started late. Made only for methods of a client with interceptors.
 *
 * <p>Written by the sending thread before the attempt is queued and read by whoever ends it (the
 * write queue's hand-off orders the two); {@link #ended} runs once.
 */
final class AttemptInterceptors implements ClientCall {
  private static final Logger logger = LoggerFactory.getLogger(AttemptInterceptors.class);

  private final PendingCall call;
  private final ClientInterceptor[] interceptors;
  /** The client's metadata, copied on the first entry an interceptor adds. */
  private Map<String, String> metadata;
  private final Map<String, String> clientMetadata;
  private int started = -1;
  /** An interceptor's onStart failed the attempt: it says nothing about the server. */
  private boolean refused;
  private long startNanos;
  private String server;
  private int requestBytes;
  /** Written by the thread that ends the attempt with a reply, before it ends the interceptors. */
  private int responseBytes;
  private Object[] attachments;

  AttemptInterceptors(
      PendingCall call, ClientInterceptor[] interceptors, Map<String, String> metadata) {
    this.call = call;
    this.interceptors = interceptors;
    this.metadata = metadata;
    this.clientMetadata = metadata;
  }

  /**
   * Runs every {@link ClientInterceptor#onStart}, on the sending thread, before the attempt is
   * encoded and sent to {@code server}.
   *
   * @throws RpcxException if an interceptor fails the attempt: it is not sent, not retried, and
   *     does not count against the server
   */
  void start(String server) {
    this.server = server;
    this.startNanos = System.nanoTime();
    started = 0;
    for (ClientInterceptor interceptor : interceptors) {
      try {
        interceptor.onStart(this);
      } catch (RpcxException e) {
        refused = true;
        throw e;
      } catch (RuntimeException e) {
        refused = true;
        throw new InternalErrorException(
            "client interceptor " + interceptor.getClass().getName() + " failed before "
                + call.model().displayName() + " was sent: " + e,
            e);
      } finally {
        started++;
      }
    }
  }

  /** Whether an interceptor failed the attempt before it was sent. */
  boolean refused() {
    return refused;
  }

  /** The metadata the attempt carries: the client's, and what interceptors added. */
  Map<String, String> sentMetadata() {
    return metadata;
  }

  /** The request of the attempt was encoded: {@code bytes} of payload. */
  void encoded(int bytes) {
    requestBytes = bytes;
  }

  /** The reply (or a stream's messages) came: {@code bytes} of payload. */
  void received(int bytes) {
    responseBytes = bytes;
  }

  /**
   * The attempt ended: with {@code failure} (what its caller gets, as an {@link RpcxException}), or
   * OK if null; a timeout passes the exception of its status.
   */
  void ended(RpcxException failure) {
    if (started < 0) {
      startLate();
    }
    StatusCode status = failure == null ? StatusCode.OK : failure.status();
    CallResult result =
        new CallResult(
            status, failure, System.nanoTime() - startNanos, requestBytes, responseBytes);
    for (int i = Math.min(started, interceptors.length) - 1; i >= 0; i--) {
      try {
        interceptors[i].onEnd(this, result);
      } catch (RuntimeException e) {
        logger.warn(
            "Client interceptor {} failed at the end of {}",
            interceptors[i].getClass().getName(),
            call.model().displayName(),
            e);
      }
    }
  }

  /**
   * Starts the interceptors of an attempt that ended before it could be sent anywhere, so that
   * every end has its start: each is started whatever the others do, and what they add to the
   * metadata is dropped with the attempt.
   */
  private void startLate() {
    this.startNanos = System.nanoTime();
    started = 0;
    for (ClientInterceptor interceptor : interceptors) {
      try {
        interceptor.onStart(this);
      } catch (RuntimeException e) {
        logger.warn(
            "Client interceptor {} failed to start {}, which was not sent",
            interceptor.getClass().getName(),
            call.model().displayName(),
            e);
      } finally {
        started++;
      }
    }
  }

  // ClientCall, for the interceptors.

  @Override
  public MethodDescriptor method() {
    return call.model().descriptor();
  }

  @Override
  public int attempt() {
    return call.attempt();
  }

  @Override
  public String server() {
    return server;
  }

  @Override
  public Duration timeRemaining() {
    return Duration.ofNanos(call.remainingNanos());
  }

  @Override
  public List<Object> arguments() {
    Object[] args = call.args();
    return args == null ? List.of() : Collections.unmodifiableList(Arrays.asList(args));
  }

  @Override
  public Map<String, String> metadata() {
    return Collections.unmodifiableMap(metadata);
  }

  @Override
  public void putMetadata(String key, String value) {
    // Not "ended": an attempt may end (timed out, cancelled, never sent) while an interceptor is
    // starting it; what it adds then is dropped with the attempt.
    if (started < 0 || started >= interceptors.length) {
      throw new IllegalStateException(
          "metadata can be added only in ClientInterceptor.onStart, before the attempt is sent");
    }
    if (metadata == clientMetadata) {
      metadata = new HashMap<>(metadata);
    }
    metadata.put(Checks.metadataKey(key), Objects.requireNonNull(value, "value"));
  }

  @Override
  public RpcxContext context() {
    return call.invocation().caller();
  }

  @Override
  public long streamMessagesReceived() {
    return call.streamMessagesReceived();
  }

  @Override
  public long streamMessagesSent() {
    return call.streamMessagesSent();
  }

  @Override
  public <T> void attach(RpcxContext.Key<T> key, T value) {
    Object[] current = attachments;
    if (current == null) {
      attachments = new Object[] {key, value};
      return;
    }
    for (int i = 0; i < current.length; i += 2) {
      if (current[i] == key) {
        current[i + 1] = value;
        return;
      }
    }
    Object[] grown = Arrays.copyOf(current, current.length + 2);
    grown[current.length] = key;
    grown[current.length + 1] = value;
    attachments = grown;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T> T attachment(RpcxContext.Key<T> key) {
    Object[] current = attachments;
    if (current != null) {
      for (int i = 0; i < current.length; i += 2) {
        if (current[i] == key) {
          return (T) current[i + 1];
        }
      }
    }
    return null;
  }
}
