package io.rpcx.core.internal.transport;

import javax.net.ssl.SSLException;

/** Finding the TLS failure in what a pipeline reports, for both ends of a connection. */
public final class TlsFailures {
  private TlsFailures() {}

  /** The {@link SSLException} in {@code cause}'s chain, or {@code null} if it is not a TLS failure. */
  public static SSLException find(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof SSLException) {
        return (SSLException) t;
      }
    }
    return null;
  }
}
