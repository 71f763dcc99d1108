package io.rpcx.server;

import java.lang.reflect.Method;
import java.util.Map;

/**
 * What a {@link ServerInterceptor} knows about a call before its arguments are decoded. Valid for
 * the duration of the call; implementations are not thread-safe beyond that.
 */
public interface CallInfo {

  /** Published service name. */
  String service();

  /** Published method name. */
  String method();

  /** The Java method of the service interface that will run. */
  Method javaMethod();

  /** The call's metadata (credentials, for example); never logged by RPCX. */
  Map<String, String> metadata();

  /** The client's address. */
  String remoteAddress();
}
