package io.rpcx.core;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The call a thread is serving, if any, and what travels with it: its service and method, its
 * deadline, its metadata, its client's address, and values that instrumentation attaches under
 * typed {@link Key}s.
 *
 * <p>A server makes the context of each call {@linkplain #current() current} while its interceptors
 * and its implementation run. An RPCX call made meanwhile (a service calling another service)
 * inherits the caller's deadline: it times out at the earlier of its own timeout and the deadline
 * of the call being served, unless its method is annotated {@code @OwnDeadline}.
 *
 * <pre>{@code
 * public Order place(Cart cart) {
 *   RpcxContext call = RpcxContext.current();
 *   log.info("{} from {}, {} left", call.method(), call.remoteAddress(), call.timeRemaining());
 *   Stock stock = inventory.reserve(cart); // inherits what is left of this call's deadline
 *   ...
 * }
 * }</pre>
 *
 * <p>A call is <em>cancelled</em> when its client gives up on it (its timeout passed, it cancelled
 * its future or its stream, it closed its connection) or the server's grace period ends at
 * shutdown: {@link #isCancelled()} turns true, the listeners given to {@link #onCancel} run, RPCX
 * calls made in the context fail with {@link CancelledException} and tell their servers (so the
 * cancellation travels down a chain of calls), and a method annotated {@code @InterruptOnCancel}
 * has its thread interrupted. Code that loops or waits long checks it:
 *
 * <pre>{@code
 * for (Row row : rows) {
 *   if (RpcxContext.current().isCancelled()) {
 *     throw new CancelledException("the report was cancelled", null); // nobody waits for it
 *   }
 *   ...
 * }
 * }</pre>
 *
 * <p>The context is per thread. Work handed to another thread takes it along only when wrapped:
 * {@link #wrap(Runnable)}, {@link #wrap(Callable)}, or an executor from {@link
 * #propagating(Executor)}; a {@code CompletableFuture} stage that runs elsewhere must be given such
 * an executor. Immutable and thread-safe; {@code with...} methods return a new context.
 */
public final class RpcxContext {
  /** The innermost open scope of each thread; {@code null} stands for {@link #ROOT}. */
  private static final ThreadLocal<Scope> CURRENT = new ThreadLocal<>();

  private static final Object[] NO_VALUES = new Object[0];

  /** The context outside any call: no call, no deadline, no metadata, no values. */
  public static final RpcxContext ROOT =
      new RpcxContext(null, null, null, false, 0, Map.of(), null, null, NO_VALUES);

  private final String service;
  private final String method;
  private final Method javaMethod;
  private final boolean hasDeadline;
  private final long deadlineNanoTime;
  private final Map<String, String> metadata;
  private final String remoteAddress;
  /** The call's cancellation, shared with the contexts derived from it; {@code null} outside one. */
  private final CallCancellation cancellation;

  /** Keys and values, alternating; small, so a copy per {@link #with} is cheap. */
  private final Object[] values;

  private RpcxContext(
      String service,
      String method,
      Method javaMethod,
      boolean hasDeadline,
      long deadlineNanoTime,
      Map<String, String> metadata,
      String remoteAddress,
      CallCancellation cancellation,
      Object[] values) {
    this.service = service;
    this.method = method;
    this.javaMethod = javaMethod;
    this.hasDeadline = hasDeadline;
    this.deadlineNanoTime = deadlineNanoTime;
    this.metadata = metadata;
    this.remoteAddress = remoteAddress;
    this.cancellation = cancellation;
    this.values = values;
  }

  /**
   * The context of a call being served. RPCX's server makes one per call; tests of code that reads
   * the context make their own and run the code in it ({@link #run}).
   *
   * @param timeout what the client allowed the call, counted from now; {@code null} for no deadline
   * @param javaMethod the Java method that serves the call, or {@code null} if unknown
   */
  public static RpcxContext forCall(
      String service,
      String method,
      Method javaMethod,
      Duration timeout,
      Map<String, String> metadata,
      String remoteAddress) {
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(method, "method");
    long deadline = timeout == null ? 0 : System.nanoTime() + saturatedNanos(timeout);
    return forCall(service, method, javaMethod, timeout != null, deadline, metadata, remoteAddress);
  }

  /**
   * The context of a call being served whose deadline is {@code deadlineNanoTime} in {@link
   * System#nanoTime()} terms, if {@code hasDeadline}. For RPCX's server, which counts a call's time
   * from when its request arrived.
   */
  public static RpcxContext forCall(
      String service,
      String method,
      Method javaMethod,
      boolean hasDeadline,
      long deadlineNanoTime,
      Map<String, String> metadata,
      String remoteAddress) {
    return new RpcxContext(
        Objects.requireNonNull(service, "service"),
        Objects.requireNonNull(method, "method"),
        javaMethod,
        hasDeadline,
        hasDeadline ? deadlineNanoTime : 0,
        Map.copyOf(Objects.requireNonNull(metadata, "metadata")),
        remoteAddress,
        new CallCancellation(),
        NO_VALUES);
  }

  /** The context of the calling thread: the call it serves, or {@link #ROOT}. */
  public static RpcxContext current() {
    Scope innermost = CURRENT.get();
    return innermost != null ? innermost.attached : ROOT;
  }

  /** Whether this is the context of a call being served (not {@link #ROOT} or derived from it). */
  public boolean isServingCall() {
    return service != null;
  }

  /** The published service name of the call being served, or {@code null} outside a call. */
  public String service() {
    return service;
  }

  /** The published method name of the call being served, or {@code null} outside a call. */
  public String method() {
    return method;
  }

  /** The Java method serving the call, or {@code null} outside a call or if unknown. */
  public Method javaMethod() {
    return javaMethod;
  }

  /** The call's metadata (credentials, trace headers); empty outside a call. */
  public Map<String, String> metadata() {
    return metadata;
  }

  /** The address of the client that made the call, or {@code null} outside a call. */
  public String remoteAddress() {
    return remoteAddress;
  }

  /** Whether calls made in this context must end by a deadline. */
  public boolean hasDeadline() {
    return hasDeadline;
  }

  /** The deadline in {@link System#nanoTime()} terms; meaningful only if {@link #hasDeadline()}. */
  public long deadlineNanoTime() {
    return deadlineNanoTime;
  }

  /** The time left before the deadline (negative once it passed), or empty without a deadline. */
  public Optional<Duration> timeRemaining() {
    return hasDeadline
        ? Optional.of(Duration.ofNanos(deadlineNanoTime - System.nanoTime()))
        : Optional.empty();
  }

  /** Whether the deadline has passed. */
  public boolean isExpired() {
    return hasDeadline && deadlineNanoTime - System.nanoTime() <= 0;
  }

  /**
   * Whether the call of this context was cancelled: nobody waits for its outcome any more (see
   * the class comment). Always false outside a call, and in a context made by {@link
   * #withoutDeadline()}.
   */
  public boolean isCancelled() {
    return cancellation != null && cancellation.isCancelled();
  }

  /** Why the call was cancelled ("the client cancelled the call: ..."), or empty if it was not. */
  public Optional<String> cancellationReason() {
    return cancellation == null ? Optional.empty() : Optional.ofNullable(cancellation.reason());
  }

  /**
   * Runs {@code listener} once when the call of this context is cancelled: on the thread that
   * cancels it, often a network thread, so keep it short and never block in it (hand longer work
   * to an executor); at once, on this thread, if it was cancelled already; never outside a call.
   * Close the registration when the listener is no longer needed, so that a long call does not
   * keep one per piece of work it did.
   */
  public Registration onCancel(Runnable listener) {
    Objects.requireNonNull(listener, "listener");
    return cancellation == null ? Registration.NONE : cancellation.register(listener);
  }

  /**
   * Cancels the call of this context, saying {@code reason}: {@link #isCancelled()} turns true and
   * the listeners run, once; later cancels do nothing. RPCX's server cancels the context of a call
   * whose client gave up or whose connection closed; code cancels the work of a call it gave up
   * on itself, and tests cancel contexts they made with {@code forCall}.
   *
   * @throws IllegalStateException outside a call, where there is nothing to cancel
   */
  public void cancel(String reason) {
    Objects.requireNonNull(reason, "reason");
    if (cancellation == null) {
      throw new IllegalStateException("cannot cancel " + this + ": it is not the context of a call");
    }
    cancellation.cancel(reason);
  }

  /**
   * This context with a deadline {@code timeout} from now, or its own if that comes first: calls
   * made in it end by then.
   */
  public RpcxContext withTimeout(Duration timeout) {
    long deadline = System.nanoTime() + saturatedNanos(Objects.requireNonNull(timeout, "timeout"));
    if (hasDeadline && deadlineNanoTime - deadline <= 0) {
      return this;
    }
    return new RpcxContext(
        service, method, javaMethod, true, deadline, metadata, remoteAddress, cancellation,
        values);
  }

  /**
   * This context without a deadline, and apart from the call's cancellation: calls made in it keep
   * their own timeouts and go on when the call being served is cancelled, for work that must
   * outlive it.
   */
  public RpcxContext withoutDeadline() {
    return hasDeadline || cancellation != null
        ? new RpcxContext(
            service, method, javaMethod, false, 0, metadata, remoteAddress, null, values)
        : this;
  }

  /** The value under {@code key}, or {@code null}. */
  public <T> T get(Key<T> key) {
    Object[] current = values;
    for (int i = 0; i < current.length; i += 2) {
      if (current[i] == key) {
        return key.type.cast(current[i + 1]);
      }
    }
    return null;
  }

  /** This context with {@code value} under {@code key} (replacing any value there). */
  public <T> RpcxContext with(Key<T> key, T value) {
    Objects.requireNonNull(key, "key");
    key.type.cast(value);
    Object[] current = values;
    Object[] next;
    int at = indexOf(current, key);
    if (at >= 0) {
      next = current.clone();
      next[at + 1] = value;
    } else {
      next = Arrays.copyOf(current, current.length + 2);
      next[current.length] = key;
      next[current.length + 1] = value;
    }
    return new RpcxContext(
        service, method, javaMethod, hasDeadline, deadlineNanoTime, metadata, remoteAddress,
        cancellation, next);
  }

  private static int indexOf(Object[] values, Key<?> key) {
    for (int i = 0; i < values.length; i += 2) {
      if (values[i] == key) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Makes this context current on the calling thread until the returned scope is closed, which
   * restores the one before. Close it on the same thread, in a {@code try}-with-resources block.
   */
  public Scope attach() {
    Scope scope = new Scope(this, CURRENT.get(), Thread.currentThread());
    CURRENT.set(scope);
    return scope;
  }

  /** Runs {@code task} with this context current. */
  @SuppressWarnings("try") // the scope is open while the task runs
  public void run(Runnable task) {
    try (Scope ignored = attach()) {
      task.run();
    }
  }

  /** Runs {@code task} with this context current and returns its result. */
  @SuppressWarnings("try") // the scope is open while the task runs
  public <T> T call(Callable<T> task) throws Exception {
    try (Scope ignored = attach()) {
      return task.call();
    }
  }

  /** {@code task}, run with this context current wherever it runs. */
  public Runnable wrap(Runnable task) {
    Objects.requireNonNull(task, "task");
    return () -> run(task);
  }

  /** {@code task}, run with this context current wherever it runs. */
  public <T> Callable<T> wrap(Callable<T> task) {
    Objects.requireNonNull(task, "task");
    return () -> call(task);
  }

  /**
   * An executor that runs each task on {@code executor} with the context that was current on the
   * thread that submitted it: for thread hops that make RPCX calls on behalf of the call being
   * served ({@code CompletableFuture.supplyAsync(task, propagating(pool))}, for example).
   *
   * <p>A stage chained on a future is submitted by the thread that completes the future before it.
   * RPCX completes the futures of its own calls in the context they were made in, so stages chained
   * on those carry it; for a future that some other code completes, use {@link
   * #executor(Executor)}.
   */
  public static Executor propagating(Executor executor) {
    Objects.requireNonNull(executor, "executor");
    return task -> executor.execute(current().wrap(task));
  }

  /**
   * An executor that runs every task on {@code executor} with this context current, whichever
   * thread submits it: {@code RpcxContext.current().executor(pool)}, taken while serving a call,
   * keeps that call's deadline and trace on every stage given it.
   */
  public Executor executor(Executor executor) {
    Objects.requireNonNull(executor, "executor");
    return task -> executor.execute(wrap(task));
  }

  private static long saturatedNanos(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException e) {
      return duration.isNegative() ? Long.MIN_VALUE / 2 : Long.MAX_VALUE / 2;
    }
  }

  @Override
  public String toString() {
    if (!isServingCall()) {
      return hasDeadline
          ? "RpcxContext[deadline in " + remainingMillis() + " ms]"
          : "RpcxContext[]";
    }
    return "RpcxContext["
        + service
        + "/"
        + method
        + " from "
        + remoteAddress
        + (hasDeadline ? ", deadline in " + remainingMillis() + " ms" : "")
        + (isCancelled() ? ", cancelled" : "")
        + "]";
  }

  private long remainingMillis() {
    return TimeUnit.NANOSECONDS.toMillis(deadlineNanoTime - System.nanoTime());
  }

  /**
   * A typed key of a value in a context; compared by identity, so that only the code holding a key
   * reads its values. Keep one per purpose in a {@code static final} field.
   *
   * @param <T> the type of the values under this key
   */
  public static final class Key<T> {
    private final String name;
    private final Class<T> type;

    private Key(String name, Class<T> type) {
      this.name = name;
      this.type = type;
    }

    /** A new key, unlike any other; {@code name} is for messages only. */
    public static <T> Key<T> of(String name, Class<T> type) {
      return new Key<>(Objects.requireNonNull(name, "name"), Objects.requireNonNull(type, "type"));
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /**
   * A listener given to {@link #onCancel}; {@link #close()} removes it, if it has not run yet.
   * Thread-safe.
   */
  public static final class Registration implements AutoCloseable {
    /** The registration of a listener that will never run: outside a call. */
    static final Registration NONE = new Registration(null, () -> {});

    private final CallCancellation cancellation;
    private final Runnable listener;

    Registration(CallCancellation cancellation, Runnable listener) {
      this.cancellation = cancellation;
      this.listener = listener;
    }

    Runnable listener() {
      return listener;
    }

    /** Removes the listener: it will not run. Idempotent. */
    @Override
    public void close() {
      if (cancellation != null) {
        cancellation.remove(this);
      }
    }
  }

  /** A context made current by {@link #attach()}; closing it restores the one before. */
  public static final class Scope implements AutoCloseable {
    private final RpcxContext attached;

    /** The scope this one was opened in, or {@code null}. */
    private final Scope outer;

    private final Thread thread;
    private boolean closed;

    private Scope(RpcxContext attached, Scope outer, Thread thread) {
      this.attached = attached;
      this.outer = outer;
      this.thread = thread;
    }

    /**
     * Restores the context that was current before; a second close does nothing. A misuse is logged
     * as an error and never leaves a thread in a stale context:
     *
     * <ul>
     *   <li>closed while a scope opened inside it is still open (never closed), it closes that one
     *       too;
     *   <li>closed after the scope it was opened in was closed, it changes nothing;
     *   <li>closed on another thread than the one that attached it, it changes nothing.
     * </ul>
     */
    @Override
    public void close() {
      if (closed) {
        return;
      }
      if (Thread.currentThread() != thread) {
        Logging.LOGGER.error(
            "An RpcxContext scope of {} was closed on {}, not on {} that attached it: ignored",
            attached,
            Thread.currentThread().getName(),
            thread.getName(),
            new IllegalStateException("scope closed on another thread"));
        return;
      }
      closed = true;
      Scope innermost = CURRENT.get();
      if (innermost == this) {
        CURRENT.set(outer); // the thread's entry stays, for the next call
        return;
      }
      for (Scope open = innermost; open != null; open = open.outer) {
        if (open == this) {
          Logging.LOGGER.error(
              "The RpcxContext scope of {} was closed while one opened inside it, of {}, was"
                  + " still open: closed both",
              attached,
              innermost.attached,
              new IllegalStateException("scope left open"));
          for (Scope leaked = innermost; leaked != this; leaked = leaked.outer) {
            leaked.closed = true;
          }
          CURRENT.set(outer);
          return;
        }
      }
      Logging.LOGGER.error(
          "The RpcxContext scope of {} was closed after the scope it was opened in: ignored",
          attached,
          new IllegalStateException("scope closed late"));
    }
  }

  /** The logger, loaded with the first misuse only. */
  private static final class Logging {
    static final Logger LOGGER = LoggerFactory.getLogger(RpcxContext.class);
  }
}
