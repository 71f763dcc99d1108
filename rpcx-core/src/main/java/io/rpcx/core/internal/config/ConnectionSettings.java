package io.rpcx.core.internal.config;

import io.rpcx.core.TlsConfig;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.transport.InProcess;
import io.rpcx.core.internal.transport.InboundBudget;
import java.util.Objects;

/**
 * The connection settings a client and a server share: network threads, transport, TLS and the
 * limits on what a peer may send. Built by {@link Builder}, which both public builders use, so the
 * defaults and checks are written once. Immutable.
 */
public final class ConnectionSettings {
  /** Default largest frame accepted or sent: 16 MiB. */
  public static final int DEFAULT_MAX_FRAME_SIZE = 16 * 1024 * 1024;

  /** Default calls in flight on one connection: 10,000. */
  public static final int DEFAULT_MAX_CONCURRENT_CALLS = 10_000;

  /** Default stream window: 1,024 messages granted and not yet taken by the subscriber. */
  public static final int DEFAULT_MAX_STREAM_WINDOW = 1024;

  /** Default bytes of stream messages held per stream before no more credit is granted: 4 MiB. */
  public static final long DEFAULT_MAX_STREAM_BUFFERED_BYTES = 4L << 20;

  private final int ioThreads;
  private final boolean nativeTransport;
  private final int maxFrameSize;
  private final int maxNestingDepth;
  private final int maxConcurrentCallsPerConnection;
  private final long maxBufferedInboundBytes;
  private final int maxStreamWindow;
  private final long maxStreamBufferedBytes;
  private final TlsConfig tls;
  private final String inProcessName;

  private ConnectionSettings(Builder builder) {
    this.ioThreads = builder.ioThreads;
    this.nativeTransport = builder.nativeTransport;
    this.maxFrameSize = builder.maxFrameSize;
    this.maxNestingDepth = builder.maxNestingDepth;
    this.maxConcurrentCallsPerConnection = builder.maxConcurrentCallsPerConnection;
    this.maxBufferedInboundBytes = builder.maxBufferedInboundBytes;
    this.maxStreamWindow = builder.maxStreamWindow;
    this.maxStreamBufferedBytes = builder.maxStreamBufferedBytes;
    this.tls = builder.tls;
    this.inProcessName = builder.inProcessName;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Network threads. */
  public int ioThreads() {
    return ioThreads;
  }

  /** Whether a native transport may be used where one is available. */
  public boolean nativeTransport() {
    return nativeTransport;
  }

  /** Largest frame accepted or sent, in bytes. */
  public int maxFrameSize() {
    return maxFrameSize;
  }

  /** Deepest nesting of messages inside one received value. */
  public int maxNestingDepth() {
    return maxNestingDepth;
  }

  /** Calls in flight on one connection. */
  public int maxConcurrentCallsPerConnection() {
    return maxConcurrentCallsPerConnection;
  }

  /** Bytes held, over all connections, in frames received and not yet processed. */
  public long maxBufferedInboundBytes() {
    return maxBufferedInboundBytes;
  }

  /**
   * Stream messages a receiving side grants and has not yet delivered to its subscriber, at most
   * (docs/PROTOCOL.md, section 5.3).
   */
  public int maxStreamWindow() {
    return maxStreamWindow;
  }

  /** Bytes of stream messages held per stream above which a receiving side grants no credit. */
  public long maxStreamBufferedBytes() {
    return maxStreamBufferedBytes;
  }

  /** TLS, or {@code null} for plaintext. */
  public TlsConfig tls() {
    return tls;
  }

  /**
   * The name of the in-process server listened on or connected to, or {@code null} for TCP.
   */
  public String inProcessName() {
    return inProcessName;
  }

  /** The settings being built; every setter checks its value. Not thread-safe. */
  public static final class Builder {
    private int ioThreads = Runtime.getRuntime().availableProcessors();
    private boolean nativeTransport = true;
    private int maxFrameSize = DEFAULT_MAX_FRAME_SIZE;
    private int maxNestingDepth = DecodeContext.DEFAULT_MAX_DEPTH;
    private int maxConcurrentCallsPerConnection = DEFAULT_MAX_CONCURRENT_CALLS;
    private long maxBufferedInboundBytes = InboundBudget.defaultLimit();
    private int maxStreamWindow = DEFAULT_MAX_STREAM_WINDOW;
    private long maxStreamBufferedBytes = DEFAULT_MAX_STREAM_BUFFERED_BYTES;
    private TlsConfig tls;
    private String inProcessName;

    private Builder() {}

    public void ioThreads(int ioThreads) {
      this.ioThreads = Checks.atLeast(ioThreads, 1, "ioThreads");
    }

    public void nativeTransport(boolean nativeTransport) {
      this.nativeTransport = nativeTransport;
    }

    public void maxFrameSize(int maxFrameSize) {
      this.maxFrameSize = Checks.atLeast(maxFrameSize, 1024, "maxFrameSize");
    }

    public void maxNestingDepth(int maxNestingDepth) {
      this.maxNestingDepth = Checks.atLeast(maxNestingDepth, 1, "maxNestingDepth");
    }

    public void maxConcurrentCallsPerConnection(int maxCalls) {
      this.maxConcurrentCallsPerConnection =
          Checks.atLeast(maxCalls, 1, "maxConcurrentCallsPerConnection");
    }

    public void maxBufferedInboundBytes(long bytes) {
      this.maxBufferedInboundBytes = Checks.atLeast(bytes, 1L, "maxBufferedInboundBytes");
    }

    public void maxStreamWindow(int messages) {
      this.maxStreamWindow = Checks.atLeast(messages, 1, "maxStreamWindow");
    }

    public void maxStreamBufferedBytes(long bytes) {
      this.maxStreamBufferedBytes = Checks.atLeast(bytes, 1L, "maxStreamBufferedBytes");
    }

    /** TLS settings, checked to be a server's or a client's by the caller. */
    public void tls(TlsConfig tls) {
      this.tls = Objects.requireNonNull(tls, "tls");
    }

    /** Connections in this JVM only, to or from the in-process server named {@code name}. */
    public void inProcess(String name) {
      this.inProcessName = InProcess.checkName(name);
    }

    /**
     * The settings.
     *
     * @throws IllegalArgumentException if TLS is set for an in-process transport
     */
    public ConnectionSettings build() {
      if (tls != null && inProcessName != null) {
        throw new IllegalArgumentException(
            "tls(...) and inProcess(\"" + inProcessName + "\") cannot be combined: in-process"
                + " connections never leave the JVM, so there is nothing to encrypt");
      }
      return new ConnectionSettings(this);
    }
  }
}
