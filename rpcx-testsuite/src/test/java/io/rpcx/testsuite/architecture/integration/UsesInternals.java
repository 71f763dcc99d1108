package io.rpcx.testsuite.architecture.integration;

import io.rpcx.core.internal.protocol.Failures;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.server.internal.dispatch.ReplyFault;

/**
 * Classes that reach into RPCX's internal packages, standing in for an integration module (which
 * must use none) and for the test kit (which may use only {@link ReplyFault}): what
 * ArchitectureTest's module rules must catch.
 */
public final class UsesInternals {
  private UsesInternals() {}

  /** Uses the one seam the test kit may use. */
  public static ReplyFault.Action seam() {
    return ReplyFault.Action.SEND;
  }

  /** Uses an internal class besides it. */
  public static RpcxException failure() {
    return Failures.of(StatusCode.INTERNAL, "x", "", false);
  }
}
