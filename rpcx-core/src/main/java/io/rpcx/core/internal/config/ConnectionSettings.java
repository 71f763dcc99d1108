package io.rpcx.core.internal.config;

import io.rpcx.core.TlsConfig;

/**
 * The connection settings a client and a server share: network threads, transport, TLS and the
 * limits on what a peer may send, as the public builders checked them. Immutable.
 *
 * @param ioThreads network threads
 * @param nativeTransport whether a native transport may be used where one is available
 * @param maxFrameSize largest frame accepted or sent, in bytes
 * @param maxNestingDepth deepest nesting of messages inside one received value
 * @param maxConcurrentCallsPerConnection calls in flight on one connection
 * @param maxBufferedInboundBytes bytes held, over all connections, in frames received and not yet
 *     processed
 * @param maxStreamWindow stream messages a receiving side grants and has not yet delivered to its
 *     subscriber, at most (docs/PROTOCOL.md, section 5.3)
 * @param maxStreamBufferedBytes bytes of stream messages held per stream above which a receiving
 *     side grants no credit
 * @param tls TLS, or {@code null} for plaintext
 * @param inProcessName the name of the in-process server listened on or connected to, or {@code
 *     null} for TCP
 */
public record ConnectionSettings(
    int ioThreads,
    boolean nativeTransport,
    int maxFrameSize,
    int maxNestingDepth,
    int maxConcurrentCallsPerConnection,
    long maxBufferedInboundBytes,
    int maxStreamWindow,
    long maxStreamBufferedBytes,
    TlsConfig tls,
    String inProcessName) {
  /** Default largest frame accepted or sent: 16 MiB. */
  public static final int DEFAULT_MAX_FRAME_SIZE = 16 * 1024 * 1024;

  /** Smallest frame limit a builder accepts: 1 KiB. */
  public static final int MIN_MAX_FRAME_SIZE = 1024;

  /** Default calls in flight on one connection: 10,000. */
  public static final int DEFAULT_MAX_CONCURRENT_CALLS = 10_000;

  /** Default stream window: 1,024 messages granted and not yet taken by the subscriber. */
  public static final int DEFAULT_MAX_STREAM_WINDOW = 1024;

  /** Default bytes of stream messages held per stream before no more credit is granted: 4 MiB. */
  public static final long DEFAULT_MAX_STREAM_BUFFERED_BYTES = 4L << 20;

  /**
   * Checks that the settings agree with each other.
   *
   * @throws IllegalArgumentException if TLS is set for an in-process transport
   */
  public ConnectionSettings {
    if (tls != null && inProcessName != null) {
      throw new IllegalArgumentException(
          "tls(...) and inProcess(\"" + inProcessName + "\") cannot be combined: in-process"
              + " connections never leave the JVM, so there is nothing to encrypt");
    }
  }
}
