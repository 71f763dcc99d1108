package io.rpcx.client;

import io.rpcx.core.InvalidSettingException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A call described by names and type descriptors instead of a Java interface, for tools that have
 * no Java class of the service (the {@code rpcx} command line, gateways): its arguments and its
 * result are whole <em>value messages</em>, encoded by the caller ({@code docs/PROTOCOL.md}, section
 * 2.2; an empty array is null). {@link RpcxClient#call(RawCall)} sends it through the same path as a
 * proxy's calls: the client's interceptors, metadata, timeout, load balancing and retries, failing
 * with the same {@link io.rpcx.core.RpcxException}s.
 *
 * <p>A raw call sends no SCHEMA frame, so the server reads POJO fields with its own numbering: the
 * numbers its reflection service reports ({@link io.rpcx.core.reflection.FieldDescription}).
 * Immutable and thread-safe once built; one call may be sent any number of times.
 *
 * <pre>{@code
 * RawCall echo = RawCall.builder("example.Echo", "echo")
 *     .argument("string", new byte[] {0x0a, 0x02, 'h', 'i'})  // StringValue "hi"
 *     .result("string")
 *     .build();
 * byte[] reply = client.call(echo).join();                     // 0a 02 68 69
 * }</pre>
 */
public final class RawCall {
  private final String service;
  private final String method;
  private final List<String> argumentTypes;
  private final List<byte[]> arguments;
  private final String resultType;
  private final long timeoutMillis;
  private final boolean idempotent;

  private RawCall(Builder builder) {
    this.service = builder.service;
    this.method = builder.method;
    this.argumentTypes = List.copyOf(builder.argumentTypes);
    this.arguments = List.copyOf(builder.arguments);
    this.resultType = builder.resultType;
    this.timeoutMillis = builder.timeoutMillis;
    this.idempotent = builder.idempotent;
  }

  /**
   * A builder of a call of {@code method} of the service published as {@code service}.
   *
   * @throws IllegalArgumentException if a name is blank
   */
  public static Builder builder(String service, String method) {
    return new Builder(service, method);
  }

  /** The published service name. */
  public String service() {
    return service;
  }

  /** The published method name. */
  public String method() {
    return method;
  }

  /** The arguments' type descriptors, in order. */
  public List<String> argumentTypes() {
    return argumentTypes;
  }

  /** The arguments' value messages, in order; the arrays are shared, never modify them. */
  public List<byte[]> arguments() {
    return arguments;
  }

  /** The result's type descriptor; {@code void} when the method returns nothing. */
  public String resultType() {
    return resultType;
  }

  /** The call's timeout in milliseconds; 0 for the client's default timeout. */
  public long timeoutMillis() {
    return timeoutMillis;
  }

  /** Whether the call may be retried after it may have reached a server. */
  public boolean idempotent() {
    return idempotent;
  }

  @Override
  public String toString() {
    return service + "/" + method + argumentTypes + " -> " + resultType;
  }

  /** Configures a {@link RawCall}. Not thread-safe; {@link #build()} copies what it was given. */
  public static final class Builder {
    private final String service;
    private final String method;
    private final List<String> argumentTypes = new ArrayList<>();
    private final List<byte[]> arguments = new ArrayList<>();
    private String resultType = "void";
    private long timeoutMillis;
    private boolean idempotent;

    private Builder(String service, String method) {
      this.service = nonBlank(service, "service");
      this.method = nonBlank(method, "method");
    }

    /**
     * Appends an argument of type {@code type} (a type descriptor: {@code string}, {@code
     * list<OrderItem>}) whose value message is {@code valueMessage}, empty for null. The array is
     * not copied. A stream argument ({@code stream<T>}) is refused: raw calls are unary. (A message that does not start with field 1 of the wire type of {@code type} is
     * refused by {@link RpcxClient#call(RawCall)}.)
     */
    public Builder argument(String type, byte[] valueMessage) {
      nonBlank(type, "type");
      Objects.requireNonNull(valueMessage, "valueMessage");
      if (type.startsWith("stream<")) {
        throw new IllegalArgumentException(
            "argument " + argumentTypes.size() + " of " + service + "/" + method + " is a stream ("
                + type + "): a raw call sends one request and takes one reply; call client and"
                + " bidirectional streams from Java (docs/STREAMING.md)");
      }
      argumentTypes.add(type);
      arguments.add(valueMessage);
      return this;
    }

    /** The result's type descriptor; default {@code void}. */
    public Builder result(String type) {
      this.resultType = nonBlank(type, "type");
      return this;
    }

    /** The call's timeout; default the client's ({@link RpcxClient.Builder#defaultTimeout}). */
    public Builder timeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new InvalidSettingException("timeout", timeout, "> 0");
      }
      this.timeoutMillis = Math.max(1, timeout.toMillis());
      return this;
    }

    /**
     * Whether the method is idempotent ({@code @Idempotent} on the server's interface; its
     * reflection says so), so that a call which may have reached a server can be retried. Default
     * false.
     */
    public Builder idempotent(boolean idempotent) {
      this.idempotent = idempotent;
      return this;
    }

    /** The call. */
    public RawCall build() {
      return new RawCall(this);
    }

    private static String nonBlank(String value, String name) {
      Objects.requireNonNull(value, name);
      if (value.isBlank()) {
        throw new InvalidSettingException(name, value, "not blank");
      }
      return value;
    }
  }
}
