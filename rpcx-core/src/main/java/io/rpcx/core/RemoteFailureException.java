package io.rpcx.core;

/**
 * The service implementation threw an exception ({@link StatusCode#REMOTE_FAILURE}). The remote
 * exception's class name and message travel back; its class is never loaded on the client. Checked
 * exceptions declared by the called method are rethrown as themselves instead, when the client has
 * their class.
 */
public final class RemoteFailureException extends RpcxException {
  private static final long serialVersionUID = 1L;

  private final String remoteClassName;

  public RemoteFailureException(String message, String remoteClassName) {
    super(StatusCode.REMOTE_FAILURE, message, null);
    this.remoteClassName = remoteClassName == null ? "" : remoteClassName;
  }

  /** Fully qualified class name of the exception thrown on the server; empty if unknown. */
  public String remoteClassName() {
    return remoteClassName;
  }
}
