package io.rpcx.server;

import io.rpcx.core.UnauthenticatedException;
import java.util.Objects;
import java.util.function.Predicate;

/** Ready-made {@link ServerInterceptor}s. */
public final class ServerInterceptors {
  /** The metadata key of credentials, as HTTP's header. */
  public static final String AUTHORIZATION = "authorization";

  private static final String BEARER = "Bearer ";

  private ServerInterceptors() {}

  /**
   * Refuses, with {@link io.rpcx.core.StatusCode#UNAUTHENTICATED}, every call whose {@code
   * authorization} metadata is not {@code Bearer <token>} with a token {@code isValid} accepts. The
   * check runs before any argument is decoded, and the token never appears in a message or a log.
   * Clients send it with {@code RpcxClient.Builder.bearerToken(token)}.
   */
  public static ServerInterceptor bearerToken(Predicate<String> isValid) {
    Objects.requireNonNull(isValid, "isValid");
    return (call, next) -> {
      String credentials = call.metadata().get(AUTHORIZATION);
      if (credentials == null) {
        throw new UnauthenticatedException(
            "missing credentials: the call has no '" + AUTHORIZATION + "' metadata");
      }
      if (!credentials.startsWith(BEARER)
          || !isValid.test(credentials.substring(BEARER.length()))) {
        throw new UnauthenticatedException("invalid credentials");
      }
      return next.proceed();
    };
  }
}
