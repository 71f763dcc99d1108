package io.rpcx.client.internal.call;

import io.rpcx.annotation.Idempotent;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RoutingKey;
import io.rpcx.core.RpcxContext;
import io.rpcx.core.internal.grpc.GrpcPaths;
import io.rpcx.core.internal.model.ServiceModel;
import io.rpcx.core.internal.model.ServiceModels;
import io.rpcx.core.internal.model.StandardCodecs;
import java.util.List;
import java.util.Map;

/** Calls for tests of the layers above: real {@link PendingCall}s of a small interface. */
public final class TestCalls {

  /** The interface the calls belong to. */
  @RPCXClient(name = "carts")
  public interface Carts {
    String load(@RoutingKey String customer);

    @Idempotent
    String peek(String customer);

    void clear();
  }

  private static final ServiceModel MODEL =
      ServiceModels.forClient(Carts.class, StandardCodecs.registry());

  private TestCalls() {}

  /** A first attempt of {@code method} (load, peek or clear) with these arguments. */
  public static PendingCall call(String method, Object... args) {
    return attempt(method, 1, null, args);
  }

  /** Attempt {@code attempt} of a call whose previous attempt went to {@code previous}. */
  public static PendingCall attempt(String method, int attempt, CallRoute previous, Object... args) {
    return new BlockingCall(
        method(method), invocation(args, System.nanoTime() + 1_000_000_000L), attempt, previous);
  }

  /** The failure a finished call {@code call} (made by {@link #call}) ended with. */
  public static <T extends Throwable> T failure(PendingCall call) {
    try {
      Object result = ((BlockingCall) call).await();
      throw new AssertionError("the call succeeded: " + result);
    } catch (Throwable failure) {
      @SuppressWarnings("unchecked")
      T typed = (T) failure;
      return typed;
    }
  }

  /** A call with {@code args} made outside any served call, timing out at {@code deadlineNanos}. */
  static Invocation invocation(Object[] args, long deadlineNanos) {
    return new Invocation(args, deadlineNanos, 1_000_000_000L, RpcxContext.ROOT, false);
  }

  /** The client method {@code method} (load, peek or clear), 1 s timeout, sent nowhere. */
  static ClientMethod method(String method) {
    return new ClientMethod(
            MODEL.method(method),
            new CallChannel() {
              @Override
              public void send(PendingCall call) {}

              @Override
              public String address() {
                return "test";
              }
            },
            1_000,
            new Completions(Runnable::run),
            16,
            Map.of(),
            new RetryPolicy(3, new RetryBudget(0.2, 10)),
            List.of(),
            1024,
            4L << 20,
            GrpcPaths.of(MODEL));
  }
}
