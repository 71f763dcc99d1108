package io.rpcx.micrometer;

import io.rpcx.annotation.Method;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.core.RpcxContext;
import io.rpcx.core.UnauthenticatedException;

/** The service the module's tests observe. */
@RPCXClient(name = "greeter")
public interface Greeter {
  String hello(String name);

  String fail(String message);

  /** Refused by the server's second interceptor when {@code allowed} is false. */
  String guarded(boolean allowed);

  /** The server's view of the time left, in ms; -1 without a deadline. */
  @Method(timeoutMillis = 5_000)
  long remainingMillis();

  /** The implementation. */
  @RPCXServer(name = "greeter")
  final class Impl implements Greeter {
    @Override
    public String hello(String name) {
      return "hello " + name;
    }

    @Override
    public String fail(String message) {
      throw new IllegalStateException(message);
    }

    @Override
    public String guarded(boolean allowed) {
      if (!allowed) {
        throw new UnauthenticatedException("not allowed");
      }
      return "in";
    }

    @Override
    public long remainingMillis() {
      return RpcxContext.current().timeRemaining().map(java.time.Duration::toMillis).orElse(-1L);
    }
  }

  /** A client's view of the greeter with a method the server does not publish. */
  @RPCXClient(name = "greeter")
  interface WithUnknownMethod {
    String goodbye(String name);
  }
}
