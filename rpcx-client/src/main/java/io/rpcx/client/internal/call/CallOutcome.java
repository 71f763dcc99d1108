package io.rpcx.client.internal.call;

/** How a call sent to a server ended, as far as that server's health is concerned. */
public enum CallOutcome {
  /** The server answered, with a value or an error: it is alive. */
  REPLIED,
  /** The call could not reach the server, or the connection was lost while it was in flight. */
  UNAVAILABLE,
  /** The server did not answer in time. */
  TIMED_OUT,
  /** The call failed on the client (encoding, cancellation): says nothing about the server. */
  OTHER
}
