package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.annotation.Blocking;
import io.rpcx.annotation.InterruptOnCancel;
import io.rpcx.annotation.NonBlocking;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.RemoteFailureException;
import io.rpcx.core.ResourceExhaustedException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.CallInfo;
import io.rpcx.server.RpcxServer;
import io.rpcx.server.ServerInterceptor;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.Map;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Methods that never block run on the network thread that read their request, with their
 * interceptors; every other method on the executor; a non-blocking method that blocks anyway is
 * told of (a warning, or an exception for a blocking RPCX call), never left to stall other calls
 * silently.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NonBlockingMethodsTest {
  private static final String NETWORK = "rpcx-server-io-.*";
  private static final String WORKER = "rpcx-server-worker-.*";

  @Test
  void asynchronousAndNonBlockingMethodsRunOnTheNetworkThreadAndTheOthersOnWorkers()
      throws Exception {
    try (Served served = new Served(new PlacementService.Impl(), builder -> {})) {
      PlacementService service = served.proxy();
      assertTrue(service.plain().matches(WORKER), service.plain());
      assertTrue(service.async().get().matches(NETWORK));
      assertTrue(service.stage().toCompletableFuture().get().matches(NETWORK));
      assertTrue(service.marked().matches(NETWORK));
      assertTrue(service.asyncButBlocking().get().matches(WORKER));
      assertTrue(service.markedOnTheInterface().matches(NETWORK));
    }
  }

  @Test
  void theAnnotationOfAnOverriddenMethodCountsForTheSubclassAProxyLibraryMakes()
      throws Exception {
    try (Served served = new Served("placement", new PlacementService.Subclassed(), builder -> {})) {
      PlacementService service = served.proxy();
      assertTrue(service.marked().matches(NETWORK));
      assertTrue(service.asyncButBlocking().get().matches(WORKER));
      assertTrue(service.plain().matches(WORKER));
    }
  }

  @Test
  void aClassAnnotationCoversItsMethodsAndAMethodAnnotationWins() throws Exception {
    try (Served served = new Served(new PlacementService.AllNonBlocking(), builder -> {})) {
      PlacementService service = served.proxy();
      assertTrue(service.plain().matches(NETWORK));
      assertTrue(service.marked().matches(WORKER)); // @Blocking on the method
      assertTrue(service.asyncButBlocking().get().matches(WORKER)); // inherited method's @Blocking
      assertTrue(service.async().get().matches(NETWORK));
    }
  }

  @Test
  void interceptorsRunWhereTheMethodTheyInterceptRuns() throws Exception {
    Map<String, String> seen = new ConcurrentHashMap<>();
    ServerInterceptor recording =
        (call, next) -> {
          seen.put(call.method().method(), Thread.currentThread().getName());
          return next.proceed();
        };
    try (Served served =
        new Served(new PlacementService.Impl(), builder -> builder.intercept(recording))) {
      PlacementService service = served.proxy();
      assertEquals(service.plain(), seen.get("plain"));
      assertEquals(service.async().get(), seen.get("async"));
      assertTrue(seen.get("async").matches(NETWORK));
      assertTrue(seen.get("plain").matches(WORKER));
    }
  }

  @Test
  void anInterceptorWhoseClassIsBlockingKeepsEveryMethodOnTheWorkers() throws Exception {
    try (LogCapture logs = LogCapture.of("io.rpcx.server");
        Served served =
            new Served(
                new PlacementService.Impl(), builder -> builder.intercept(new TokenCheck()))) {
      PlacementService service = served.proxy();
      assertTrue(service.async().get().matches(WORKER));
      assertTrue(service.marked().matches(WORKER));
      assertTrue(
          logs.lines(Level.INFO).contains(
              "INFO Every call runs on the executor: interceptor "
                  + TokenCheck.class.getName() + " is annotated @Blocking"),
          logs.all());
    }
  }

  @Test
  void nonBlockingOnEventLoopFalseRunsEveryCallOnTheExecutor() throws Exception {
    try (Served served =
        new Served(
            new PlacementService.Impl(), builder -> builder.nonBlockingOnEventLoop(false))) {
      PlacementService service = served.proxy();
      assertTrue(service.async().get().matches(WORKER));
      assertTrue(service.marked().matches(WORKER));
      assertTrue(service.markedOnTheInterface().matches(WORKER));
    }
  }

  @Test
  void callsOnTheNetworkThreadSeeTheContextClassLoaderOfTheThreadThatStartedTheServer()
      throws Exception {
    ClassLoader loader = new URLClassLoader(new URL[0], getClass().getClassLoader());
    Thread starter = Thread.currentThread();
    ClassLoader previous = starter.getContextClassLoader();
    starter.setContextClassLoader(loader);
    Served served;
    try {
      served = new Served(new PlacementService.Impl(), builder -> {});
    } finally {
      starter.setContextClassLoader(previous);
    }
    try (served) {
      PlacementService service = served.proxy();
      assertEquals(System.identityHashCode(loader), service.contextLoader());
      assertEquals(System.identityHashCode(loader), service.contextLoaderAsync().get());
    }
  }

  @Test
  void theLimitOfCallsPerConnectionHoldsForCallsOnTheNetworkThread() throws Exception {
    Held held = new Held();
    try (Served served =
        new Served(held, builder -> builder.maxConcurrentCallsPerConnection(1))) {
      HeldService service = served.client.create(HeldService.class);
      CompletableFuture<String> first = service.hold();
      held.entered.get(10, TimeUnit.SECONDS);
      ExecutionException refused =
          assertThrows(ExecutionException.class, () -> service.hold().get(10, TimeUnit.SECONDS));
      assertTrue(refused.getCause() instanceof ResourceExhaustedException, refused.toString());
      assertTrue(
          refused.getCause().getMessage().endsWith(
              ": too many calls in flight on this connection (limit 1); held/hold was not"
                  + " processed"),
          refused.getCause().getMessage());
      held.gate.complete("done");
      assertEquals("done", first.get(10, TimeUnit.SECONDS));
    }
  }

  @Test
  void aBlockingRpcxCallFromANonBlockingMethodFailsAtOnceNamingBothCalls() throws Exception {
    RpcxServer echo =
        RpcxServer.builder().bindAddress("127.0.0.1").service(new EchoService.Impl()).build()
            .start();
    try (RpcxClient toEcho = RpcxClient.builder().target("127.0.0.1", echo.port()).build();
        LogCapture logs = LogCapture.warnings("io.rpcx");
        Served served = new Served(new Relay(toEcho.create(EchoService.class)), builder -> {})) {
      RelayService relay = served.client.create(RelayService.class);
      RemoteFailureException refused =
          assertThrows(RemoteFailureException.class, () -> relay.relay("hello"));
      assertEquals("io.rpcx.core.BlockingOperationException", refused.remoteClassName());
      assertTrue(
          refused.getMessage().matches(
              "relay/relay on 127\\.0\\.0\\.1:\\d+ threw io\\.rpcx\\.core\\.BlockingOperationException:"
                  + " a blocking call to echo/echo was made on network thread rpcx-server-io-.* by"
                  + " relay/relay, which runs there because it never blocks \\(it is asynchronous"
                  + " or @NonBlocking\\) or its server runs every call there"
                  + " \\(directExecutor\\(\\)\\): waiting there would stall every call of that thread's"
                  + " connections\\. Make the call through a client method returning"
                  + " CompletableFuture, or annotate the calling method @Blocking so that it runs"
                  + " on a worker"),
          refused.getMessage());
      // The asynchronous way works from the same thread.
      assertEquals("hello", relay.relayAsync("hello").get(10, TimeUnit.SECONDS));
      logs.assertMatching(
          Level.WARN,
          "WARN relay/relay threw io\\.rpcx\\.core\\.BlockingOperationException: a blocking"
              + " call to echo/echo .* \\(for /127\\.0\\.0\\.1:\\d+\\) \\[io\\.rpcx\\.core\\"
              + ".BlockingOperationException: a blocking call to echo/echo .*\\]");
    } finally {
      echo.stop();
    }
  }

  @Test
  void waitingForAnRpcxFutureOnTheNetworkThreadFailsAtOnceNamingBothCalls() throws Exception {
    Held held = new Held(); // answers nothing until the test opens its gate
    try (Served heldServed = new Served(held, builder -> {});
        LogCapture logs = LogCapture.warnings("io.rpcx");
        Served served =
            new Served(new Waiter(heldServed.client.create(HeldService.class)), builder -> {})) {
      WaiterService waiter = served.client.create(WaiterService.class);
      for (String method : List.of("joined", "stageJoined")) {
        RemoteFailureException refused =
            assertThrows(
                RemoteFailureException.class,
                () -> {
                  if (method.equals("joined")) {
                    waiter.joined();
                  } else {
                    waiter.stageJoined();
                  }
                });
        assertEquals("io.rpcx.core.BlockingOperationException", refused.remoteClassName());
        assertTrue(
            refused.getMessage().matches(
                "waiter/" + method + " on 127\\.0\\.0\\.1:\\d+ threw"
                    + " io\\.rpcx\\.core\\.BlockingOperationException: waiting for the result of"
                    + " held/hold on network thread rpcx-server-io-.* in waiter/" + method
                    + " would stall every call of that thread's connections, the reply included:"
                    + " return the future composed \\(thenApply, thenCompose\\) instead of"
                    + " waiting for it, or annotate the calling method @Blocking so that it runs"
                    + " on a worker"),
            refused.getMessage());
      }
      logs.assertMatching(
          Level.WARN,
          "WARN waiter/joined threw io\\.rpcx\\.core\\.BlockingOperationException: waiting"
              + " for the result of held/hold .*",
          "WARN waiter/stageJoined threw io\\.rpcx\\.core\\.BlockingOperationException:"
              + " waiting for the result of held/hold .*");
      held.gate.complete("done");
    }
  }

  @Test
  void aDoneRpcxFutureGivesItsResultOnTheNetworkThread() throws Exception {
    RpcxServer echo =
        RpcxServer.builder().bindAddress("127.0.0.1").service(new EchoService.Impl()).build()
            .start();
    try (RpcxClient toEcho = RpcxClient.builder().target("127.0.0.1", echo.port()).build();
        Served served = new Served(new Relay(toEcho.create(EchoService.class)), builder -> {})) {
      assertEquals(
          "hello!",
          served.client.create(RelayService.class).relayComposed("hello").get(10, TimeUnit.SECONDS));
    } finally {
      echo.stop();
    }
  }

  @Test
  void aNonBlockingMethodThatBlocksIsLoggedWithItsStackAndWhenItLetsGo() throws Exception {
    PlacementService.Stuck.Impl stuck = new PlacementService.Stuck.Impl();
    try (LogCapture logs = LogCapture.warnings("io.rpcx");
        Served served =
            new Served(
                stuck,
                builder ->
                    builder.ioThreads(1).blockedEventLoopThreshold(Duration.ofMillis(100)));
        RpcxClient other =
            RpcxClient.builder().target("127.0.0.1", served.server.port()).build()) {
      CompletableFuture<String> blocked =
          CompletableFuture.supplyAsync(
              () -> served.client.create(PlacementService.Stuck.class).block(),
              ThreadPerTask.EXECUTOR);
      assertTrue(stuck.entered.await(10, TimeUnit.SECONDS));
      // Another connection on the same (only) network thread waits meanwhile: not silently.
      CompletableFuture<String> bystander =
          CompletableFuture.supplyAsync(
              () -> other.create(PlacementService.Stuck.class).quick(), ThreadPerTask.EXECUTOR);
      assertTrue(
          logs.awaitLine(
              Level.WARN,
              "WARN stuck/block from /127\\.0\\.0\\.1:\\d+ has held network thread"
                  + " rpcx-server-io-\\d+-1 for \\d+ ms \\(threshold 100 ms\\): every other call"
                  + " on that thread's connections waits until it returns\\. It runs there"
                  + " because it is annotated @NonBlocking; code that blocks must not: annotate"
                  + " the method \\(or the blocking interceptor's class\\) @Blocking, or make it"
                  + " asynchronous without blocking\\. \\[.*BlockedHere: the stack of"
                  + " rpcx-server-io-\\d+-1 when it was found held\\]"),
          logs.all());
      assertFalse(bystander.isDone());
      ch.qos.logback.classic.spi.IThrowableProxy where =
          logs.events().stream()
              .filter(event -> event.getFormattedMessage().startsWith("stuck/block from"))
              .findFirst()
              .orElseThrow()
              .getThrowableProxy();
      assertTrue(
          java.util.Arrays.stream(where.getStackTraceElementProxyArray())
              .anyMatch(frame -> frame.getSTEAsString().contains("Stuck$Impl.block")),
          "the stack shows where the method blocks");
      stuck.gate.countDown();
      assertEquals("released", blocked.get(10, TimeUnit.SECONDS));
      assertEquals("quick", bystander.get(10, TimeUnit.SECONDS));
      assertTrue(
          logs.awaitLine(
              Level.WARN,
              "WARN stuck/block let go of network thread rpcx-server-io-\\d+-1 after about \\d+"
                  + " ms"),
          logs.all());
    }
  }

  @Test
  void contradictoryOrImpossibleAnnotationsFailTheBuildNamingTheMethod() {
    IllegalArgumentException both =
        assertThrows(
            IllegalArgumentException.class,
            () -> RpcxServer.builder().service(new BothWays()).build());
    assertEquals(
        BothWays.class.getName() + ".plain() is annotated both @Blocking and @NonBlocking; keep"
            + " one",
        both.getMessage());
    IllegalArgumentException stream =
        assertThrows(
            IllegalArgumentException.class,
            () -> RpcxServer.builder().service(new CountingWords()).build());
    assertEquals(
        WordCount.class.getName() + ".count(Publisher) is annotated @NonBlocking, but it takes a"
            + " stream argument and returns its result synchronously: it would wait on the"
            + " network thread for the stream messages that thread delivers. Return"
            + " CompletableFuture, CompletionStage or Flow.Publisher instead, or remove"
            + " @NonBlocking",
        stream.getMessage());
  }

  @Test
  void anAsynchronousMethodWithAStreamArgumentTakesItsElementsOnTheWorkersUnlessMarked()
      throws Exception {
    try (Served served = new Served(new Collecting(), builder -> {})) {
      Collector collector = served.client.create(Collector.class);
      String unmarked = collector.threads(itemsOf("a", "b", "c")).get(10, TimeUnit.SECONDS);
      assertTrue(unmarked.matches(WORKER + "(," + WORKER + ")*"), unmarked);
      String marked =
          collector.threadsOnTheNetwork(itemsOf("a", "b", "c")).get(10, TimeUnit.SECONDS);
      assertTrue(marked.matches(NETWORK + "(," + NETWORK + ")*"), marked);
    }
  }

  @Test
  void aClassAnnotatedBlockingKeepsItsAsynchronousMethodsOnTheWorkers() throws Exception {
    try (Served served = new Served(new BlockingHeld(), builder -> {})) {
      assertTrue(
          served.client.create(ThreadService.class).thread().get(10, TimeUnit.SECONDS)
              .matches(WORKER));
    }
  }

  @Test
  void aMethodInterruptedWhenCancelledRunsOnTheWorkersAndCannotBeMarkedNonBlocking()
      throws Exception {
    try (Served served = new Served(new Interruptible(), builder -> {})) {
      assertTrue(
          served.client.create(ThreadService.class).thread().get(10, TimeUnit.SECONDS)
              .matches(WORKER));
    }
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> RpcxServer.builder().service(new InterruptibleMarked()).build());
    assertEquals(
        ThreadService.class.getName() + ".thread() is annotated @NonBlocking and"
            + " @InterruptOnCancel: a method that is interrupted when cancelled waits for"
            + " something, so it blocks; keep one",
        refused.getMessage());
  }

  /** A publisher of {@code items}, as many at a time as requested. */
  private static Flow.Publisher<String> itemsOf(String... items) {
    return subscriber ->
        subscriber.onSubscribe(
            new Flow.Subscription() {
              private int next;
              private long demand;
              private boolean emitting;
              private boolean done;

              @Override
              public void request(long n) {
                synchronized (this) {
                  demand += n;
                  if (emitting) {
                    return; // the loop below takes the new demand
                  }
                  emitting = true;
                }
                while (true) {
                  String item;
                  synchronized (this) {
                    if (done || (demand == 0 && next < items.length)) {
                      emitting = false;
                      return;
                    }
                    if (next == items.length) {
                      done = true;
                      item = null;
                    } else {
                      demand--;
                      item = items[next++];
                    }
                  }
                  if (item == null) {
                    subscriber.onComplete();
                    return;
                  }
                  subscriber.onNext(item);
                }
              }

              @Override
              public synchronized void cancel() {
                done = true;
              }
            });
  }

  /** Collects the threads a stream argument's elements arrive on. */
  @RPCXClient(name = "collector")
  interface Collector {
    CompletableFuture<String> threads(Flow.Publisher<String> items);

    @NonBlocking
    CompletableFuture<String> threadsOnTheNetwork(Flow.Publisher<String> items);
  }

  @RPCXServer(name = "collector")
  static final class Collecting implements Collector {
    @Override
    public CompletableFuture<String> threads(Flow.Publisher<String> items) {
      return collect(items);
    }

    @Override
    public CompletableFuture<String> threadsOnTheNetwork(Flow.Publisher<String> items) {
      return collect(items);
    }

    private static CompletableFuture<String> collect(Flow.Publisher<String> items) {
      CompletableFuture<String> threads = new CompletableFuture<>();
      items.subscribe(
          new Flow.Subscriber<>() {
            private final java.util.List<String> seen = new java.util.ArrayList<>();

            @Override
            public void onSubscribe(Flow.Subscription subscription) {
              subscription.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(String item) {
              seen.add(Thread.currentThread().getName());
            }

            @Override
            public void onError(Throwable error) {
              threads.completeExceptionally(error);
            }

            @Override
            public void onComplete() {
              threads.complete(String.join(",", seen));
            }
          });
      return threads;
    }
  }

  /** The thread a method runs on. */
  @RPCXClient(name = "thread")
  interface ThreadService {
    CompletableFuture<String> thread();
  }

  @RPCXServer(name = "thread")
  @Blocking
  static final class BlockingHeld implements ThreadService {
    @Override
    public CompletableFuture<String> thread() {
      return CompletableFuture.completedFuture(Thread.currentThread().getName());
    }
  }

  @RPCXServer(name = "thread")
  static final class Interruptible implements ThreadService {
    @InterruptOnCancel
    @Override
    public CompletableFuture<String> thread() {
      return CompletableFuture.completedFuture(Thread.currentThread().getName());
    }
  }

  @RPCXServer(name = "thread")
  static final class InterruptibleMarked implements ThreadService {
    @NonBlocking
    @InterruptOnCancel
    @Override
    public CompletableFuture<String> thread() {
      return CompletableFuture.completedFuture(Thread.currentThread().getName());
    }
  }

  /** A server publishing one service, and a client of it; closing stops both. */
  private static final class Served implements AutoCloseable {
    final RpcxServer server;
    final RpcxClient client;

    Served(Object service, java.util.function.Consumer<RpcxServer.Builder> configure) {
      this(null, service, configure);
    }

    /** {@code service} published as {@code name}, or under its annotation's if null. */
    Served(
        String name, Object service, java.util.function.Consumer<RpcxServer.Builder> configure) {
      RpcxServer.Builder builder = RpcxServer.builder().bindAddress("127.0.0.1").workerPool();
      if (name == null) {
        builder.service(service);
      } else {
        builder.service(name, service); // a proxy's subclass carries no @RPCXServer
      }
      configure.accept(builder);
      server = builder.build().start();
      client = RpcxClient.builder().target("127.0.0.1", server.port()).build();
    }

    PlacementService proxy() {
      return client.create(PlacementService.class);
    }

    @Override
    public void close() {
      client.close();
      server.stop();
    }
  }

  /** An interceptor that says it blocks. */
  @Blocking
  static final class TokenCheck implements ServerInterceptor {
    @Override
    public CompletionStage<Object> intercept(CallInfo call, Next next) {
      return next.proceed();
    }
  }

  /** A service holding its asynchronous calls until the test completes {@link #gate}. */
  @RPCXClient(name = "held")
  interface HeldService {
    CompletableFuture<String> hold();
  }

  @RPCXServer(name = "held")
  static final class Held implements HeldService {
    final CompletableFuture<Void> entered = new CompletableFuture<>();
    final CompletableFuture<String> gate = new CompletableFuture<>();

    @Override
    public CompletableFuture<String> hold() {
      entered.complete(null);
      return gate;
    }
  }

  /** Waits on the network thread for calls to the held service. */
  @RPCXClient(name = "waiter")
  interface WaiterService {
    /** Waits for the asynchronous call: refused on the network thread. */
    String joined();

    /** Waits for a stage made from the asynchronous call: refused too. */
    String stageJoined();
  }

  @RPCXServer(name = "waiter")
  @NonBlocking
  static final class Waiter implements WaiterService {
    private final HeldService held;

    Waiter(HeldService held) {
      this.held = held;
    }

    @Override
    public String joined() {
      return held.hold().join();
    }

    @Override
    public String stageJoined() {
      return held.hold().thenApply(String::toUpperCase).join();
    }
  }

  /** Passes its argument on to the echo service. */
  @RPCXClient(name = "relay")
  interface RelayService {
    String relay(String text);

    CompletableFuture<String> relayAsync(String text);

    /** Reads the result of the asynchronous call once it is done: allowed anywhere. */
    CompletableFuture<String> relayComposed(String text);
  }

  @RPCXServer(name = "relay")
  @NonBlocking
  static final class Relay implements RelayService {
    private final EchoService echo;

    Relay(EchoService echo) {
      this.echo = echo;
    }

    @Override
    public String relay(String text) {
      return echo.echo(text); // blocks: refused on the network thread
    }

    @Override
    public CompletableFuture<String> relayAsync(String text) {
      return echo.echoAsync(text);
    }

    @Override
    public CompletableFuture<String> relayComposed(String text) {
      CompletableFuture<String> echoed = echo.echoAsync(text);
      return echoed.thenApply(done -> echoed.join() + "!");
    }
  }

  @RPCXClient(name = "both")
  interface BothService {
    String plain();
  }

  @RPCXServer(name = "both")
  static final class BothWays implements BothService {
    @Blocking
    @NonBlocking
    @Override
    public String plain() {
      return "";
    }
  }

  @RPCXClient(name = "words")
  interface WordCount {
    @NonBlocking
    long count(Flow.Publisher<String> words);
  }

  @RPCXServer(name = "words")
  static final class CountingWords implements WordCount {
    @Override
    public long count(Flow.Publisher<String> words) {
      return 0;
    }
  }
}
