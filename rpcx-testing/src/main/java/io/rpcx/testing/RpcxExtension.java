package io.rpcx.testing;

import io.rpcx.client.RpcxClient;
import io.rpcx.server.RpcxServer;
import io.rpcx.testing.internal.FaultInterceptor;
import io.rpcx.testing.internal.RpcxThreads;
import io.rpcx.testing.internal.transport.BufferLeaks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit Jupiter extension (JUnit 5 or 6) that runs a real RPCX server and a client pointed at it:
 * for the whole test class when registered in a static field, for each test when registered in
 * an instance field. The server listens on 127.0.0.1 on an ephemeral port, or, after {@link
 * #inProcess()}, in-process under a name of its own: the same framing, SCHEMA frames and codecs,
 * no network.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final RpcxExtension rpcx = RpcxExtension.withServices(new EchoServiceImpl());
 *
 * @Test
 * void echoes() {
 *   assertEquals("hi", rpcx.create(EchoService.class).echo("hi"));
 * }
 * }</pre>
 *
 * <p>{@link #faults(Faults)} scripts faults the server injects: latency, dropped replies, a
 * connection reset, answers with a chosen status.
 *
 * <p>A leak check runs after each test (and after the class, for a per-class server), and fails
 * the test, naming what leaked: RPCX threads ({@code rpcx-...}) started during the test (during
 * the class, for a per-class server) and still alive once the extension has closed its server and
 * client, which means a server or client built in the test was left open; and buffers Netty
 * reports as never released. While a per-class server runs (of this class or an enclosing one),
 * whose threads start as tests need them, threads are checked once the outermost such class is
 * done. Netty's leak
 * detection is set to paranoid while the extension runs (every buffer tracked) and restored
 * afterwards; a leak is found when the garbage collector has collected the buffer, which the check
 * asks for, so a leak may be reported one test late. {@link #withoutLeakCheck()} turns the check
 * off.
 *
 * <p>Configure the extension where it is declared; it cannot change once its server started. Tests
 * of one class may run in parallel against one per-class server (its server and client are
 * thread-safe); the thread part of the leak check assumes that no other test starts RPCX threads
 * meanwhile, which JUnit's default, one test at a time, guarantees.
 */
public final class RpcxExtension
    implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
  private static final AtomicInteger IN_PROCESS_NAMES = new AtomicInteger();
  /**
   * Per-class servers running now: while one runs, its threads start as tests need them and
   * cannot be told from a test's leak, so threads are checked when the class is done.
   */
  private static final AtomicInteger PER_CLASS_RUNNING = new AtomicInteger();
  /** Whether the JVM was told once that buffer leaks go unchecked. */
  private static final java.util.concurrent.atomic.AtomicBoolean BUFFER_CHECK_WARNED =
      new java.util.concurrent.atomic.AtomicBoolean();
  private static final Duration STOP_GRACE = Duration.ofSeconds(5);

  private final List<Object> services = new ArrayList<>();
  private Consumer<RpcxServer.Builder> serverConfig = builder -> {};
  private Consumer<RpcxClient.Builder> clientConfig = builder -> {};
  private boolean inProcess;
  private Faults faults = Faults.none();
  private boolean leakCheck = true;
  private boolean perClass;
  private boolean started;
  private String inProcessName;
  private RpcxServer server;
  private RpcxClient client;
  private Set<Thread> threadsBeforeAll;
  /** Null in per-class mode, where threads are checked after all tests. */
  private Set<Thread> threadsBeforeEach;
  private String leakLevelBefore;

  private RpcxExtension() {}

  /** An extension publishing {@code services}, each an implementation annotated {@code @RPCXServer}. */
  public static RpcxExtension withServices(Object... services) {
    RpcxExtension extension = new RpcxExtension();
    for (Object service : services) {
      extension.services.add(Objects.requireNonNull(service, "services: null"));
    }
    return extension;
  }

  /** Adds server configuration, applied after the defaults (127.0.0.1, port 0, 5 s grace period). */
  public RpcxExtension server(Consumer<RpcxServer.Builder> config) {
    checkNotStarted("server(...)");
    this.serverConfig = this.serverConfig.andThen(Objects.requireNonNull(config, "config"));
    return this;
  }

  /** Adds client configuration, applied after the default (target the server). */
  public RpcxExtension client(Consumer<RpcxClient.Builder> config) {
    checkNotStarted("client(...)");
    this.clientConfig = this.clientConfig.andThen(Objects.requireNonNull(config, "config"));
    return this;
  }

  /**
   * Runs the server in-process ({@link RpcxServer.Builder#inProcess}) under a name unique in the
   * JVM, and points the client at it: no sockets, the rest of the stack as over TCP. {@link
   * #port()} then throws; {@link #inProcessName()} tells the name.
   */
  public RpcxExtension inProcess() {
    checkNotStarted("inProcess()");
    this.inProcess = true;
    return this;
  }

  /**
   * The faults the server injects (replacing those set before). The services they name are checked
   * when the server starts.
   */
  public RpcxExtension faults(Faults faults) {
    checkNotStarted("faults(...)");
    this.faults = Objects.requireNonNull(faults, "faults");
    return this;
  }

  /** Turns the leak check off, for tests that leave threads or buffers behind on purpose. */
  public RpcxExtension withoutLeakCheck() {
    checkNotStarted("withoutLeakCheck()");
    this.leakCheck = false;
    return this;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    perClass = true;
    leakLevelBefore = BufferLeaks.paranoid();
    threadsBeforeAll = RpcxThreads.live();
    PER_CLASS_RUNNING.incrementAndGet();
    start();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    try {
      try {
        stop();
      } finally {
        PER_CLASS_RUNNING.decrementAndGet();
      }
      if (leakCheck) {
        checkLeaks(
            PER_CLASS_RUNNING.get() == 0 ? threadsBeforeAll : null,
            "after the tests of " + context.getDisplayName());
      }
    } finally {
      BufferLeaks.restore(leakLevelBefore);
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (!perClass) {
      leakLevelBefore = BufferLeaks.paranoid();
    }
    if (!perClass) {
      threadsBeforeEach = RpcxThreads.live();
      start();
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    try {
      if (!perClass) {
        stop();
      }
      if (leakCheck) {
        checkLeaks(
            perClass || PER_CLASS_RUNNING.get() > 0 ? null : threadsBeforeEach,
            "after " + context.getDisplayName());
      }
    } finally {
      if (!perClass) {
        BufferLeaks.restore(leakLevelBefore);
      }
    }
  }

  private void start() {
    started = true;
    RpcxServer.Builder serverBuilder = RpcxServer.builder().shutdownGracePeriod(STOP_GRACE);
    if (inProcess) {
      inProcessName = "rpcx-testing-" + IN_PROCESS_NAMES.incrementAndGet();
      serverBuilder.inProcess(inProcessName);
    } else {
      serverBuilder.bindAddress("127.0.0.1").port(0);
    }
    FaultInterceptor faultInterceptor = null;
    if (!faults.isEmpty()) {
      faultInterceptor = faultInterceptor(faults);
      serverBuilder.intercept(faultInterceptor); // first: it decides before the others run
    }
    services.forEach(serverBuilder::service);
    serverConfig.accept(serverBuilder);
    RpcxServer built = serverBuilder.build();
    if (faultInterceptor != null) {
      faultInterceptor.checkServices(built.services());
    }
    server = built.start();
    RpcxClient.Builder clientBuilder =
        inProcess
            ? RpcxClient.builder().inProcess(inProcessName)
            : RpcxClient.builder().target("127.0.0.1", server.port());
    try {
      clientConfig.accept(clientBuilder);
      client = clientBuilder.build();
    } catch (RuntimeException | Error e) {
      stop();
      throw e;
    }
  }

  private static FaultInterceptor faultInterceptor(Faults faults) {
    List<FaultInterceptor.Rule> rules = new ArrayList<>();
    for (Faults.Fault fault : faults.faults()) {
      rules.add(
          new FaultInterceptor.Rule(
              FaultInterceptor.Kind.valueOf(fault.kind().name()),
              fault.calls(),
              fault.latency(),
              fault.status(),
              fault.message()));
    }
    return new FaultInterceptor(rules, faults.resetAfterCalls());
  }

  /**
   * Stops the server, then closes the client. In this order the connections end as in
   * production: the server's GOAWAY makes the client close each drained connection while both are
   * running. The other way round, on the in-process transport, the server's side of a connection
   * could learn of its close only after the client's event loop had stopped, and Netty would log
   * a warning for it.
   */
  private void stop() {
    try {
      if (server != null) {
        server.stop(STOP_GRACE);
      }
    } finally {
      server = null;
      if (client != null) {
        client.close();
        client = null;
      }
    }
  }

  private static void checkLeaks(Set<Thread> before, String when) {
    List<String> problems = new ArrayList<>();
    List<String> threads =
        before == null
            ? List.of()
            : RpcxThreads.startedSince(before, System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
    if (!threads.isEmpty()) {
      problems.add(
          "RPCX threads still running " + when + ", so an RpcxServer or RpcxClient built in the"
              + " test was not closed (close it, or use try-with-resources): "
              + String.join(", ", threads));
    }
    String unchecked = BufferLeaks.notCollectedBecause();
    if (unchecked != null && BUFFER_CHECK_WARNED.compareAndSet(false, true)) {
      System.err.println("RpcxExtension: buffer leaks are not checked: " + unchecked);
    }
    for (String leak : BufferLeaks.sweep()) {
      problems.add("a Netty buffer leaked " + when + ": " + leak);
    }
    if (!problems.isEmpty()) {
      throw new AssertionError("RpcxExtension leak check: " + String.join("; ", problems));
    }
  }

  private void checkNotStarted(String method) {
    if (started) {
      throw new IllegalStateException(
          method + " after the extension started its server: configure it where it is declared");
    }
  }

  /**
   * The running server.
   *
   * @throws IllegalStateException outside a test (before the server starts or after it stopped)
   */
  public RpcxServer server() {
    return running(server);
  }

  /**
   * The client pointed at the server.
   *
   * @throws IllegalStateException outside a test
   */
  public RpcxClient client() {
    return running(client);
  }

  /**
   * The port the server listens on.
   *
   * @throws IllegalStateException outside a test, or if the server runs {@link #inProcess()}
   */
  public int port() {
    return server().port();
  }

  /**
   * The name of the in-process server.
   *
   * @throws IllegalStateException outside a test, or if the server listens on a port
   */
  public String inProcessName() {
    server();
    if (inProcessName == null) {
      throw new IllegalStateException(
          "the server listens on port " + server.port() + ", not in-process (see inProcess())");
    }
    return inProcessName;
  }

  /** A proxy of {@code serviceInterface} from the extension's client. */
  public <T> T create(Class<T> serviceInterface) {
    return client().create(serviceInterface);
  }

  private <T> T running(T value) {
    if (value == null) {
      throw new IllegalStateException(
          "the RpcxExtension has no server running: it runs during the tests of the class when"
              + " registered in a static field, during each test when in an instance field");
    }
    return value;
  }
}
