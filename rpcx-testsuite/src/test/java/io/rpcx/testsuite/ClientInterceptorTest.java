package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.annotation.Method;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.client.CallResult;
import io.rpcx.client.ClientCall;
import io.rpcx.client.ClientInterceptor;
import io.rpcx.client.EndpointStatus;
import io.rpcx.client.LoadBalancing;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.CallTimeoutException;
import io.rpcx.core.InternalErrorException;
import io.rpcx.core.RemoteFailureException;
import io.rpcx.core.RpcxContext;
import io.rpcx.core.StatusCode;
import io.rpcx.core.UnauthenticatedException;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.testing.RpcxExtension;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Client interceptors see every attempt of every call before it is sent and when it ends, may add
 * metadata to one call, and may fail a call before it leaves.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ClientInterceptorTest {
  /**
   * What this class's tests may log: the failing call and the broken interceptor it provokes.
   */
  private static LogCapture logs;

  @BeforeAll
  static void captureLogs() {
    logs = LogCapture.warnings("io.rpcx");
  }

  @AfterAll
  static void onlyWhatTheTestsProvoked() {
    try {
      logs.assertOnly(
          Level.WARN,
          "WARN [\\w.]+/\\w+ threw java\\.lang\\.IllegalStateException: [^\\[]* \\(for [^)]+\\)"
              + " \\[java\\.lang\\.IllegalStateException: [^\\]]*\\]",
          "WARN Client interceptor io\\.rpcx\\.testsuite\\.ClientInterceptorTest\\$\\d+ failed"
              + " to start probe/metadata, which was not sent \\[java\\.lang\\.IllegalStateException: broken\\]");
    } finally {
      logs.close();
    }
  }


  @RPCXClient(name = "probe")
  public interface Probe {
    /** The value of metadata {@code key} as the server received it, or "none". */
    String metadata(String key);

    CompletableFuture<String> metadataAsync(String key);

    String fail(String message);

    @Method(timeoutMillis = 100)
    String sleep(long millis) throws InterruptedException;
  }

  @RPCXServer(name = "probe")
  public static final class ProbeImpl implements Probe {
    static final AtomicInteger calls = new AtomicInteger();

    @Override
    public String metadata(String key) {
      calls.incrementAndGet();
      return RpcxContext.current().metadata().getOrDefault(key, "none");
    }

    @Override
    public CompletableFuture<String> metadataAsync(String key) {
      return CompletableFuture.completedFuture(metadata(key));
    }

    @Override
    public String fail(String message) {
      throw new IllegalStateException(message);
    }

    @Override
    public String sleep(long millis) throws InterruptedException {
      Thread.sleep(millis);
      return "slept";
    }
  }

  /**
   * Records what it is told, as "name start method attempt server" and "name end method status".
   */
  static final class Recorder implements ClientInterceptor {
    static final List<String> events = new CopyOnWriteArrayList<>();
    static final List<CallResult> results = new CopyOnWriteArrayList<>();
    private final String name;

    Recorder(String name) {
      this.name = name;
    }

    @Override
    public void onStart(ClientCall call) {
      events.add(name + " start " + call.method().method() + " " + call.attempt() + " " + call.server());
    }

    @Override
    public void onEnd(ClientCall call, CallResult result) {
      events.add(name + " end " + call.method().method() + " " + result.status());
      results.add(result);
    }
  }

  /** Adds a per-call trace id, and refuses calls whose argument is "forbidden". */
  static final class Tagger implements ClientInterceptor {
    private final AtomicInteger next = new AtomicInteger();

    @Override
    public void onStart(ClientCall call) {
      if (call.arguments().contains("forbidden")) {
        throw new UnauthenticatedException("no token for " + call.method().fullName());
      }
      if (call.arguments().contains("break")) {
        throw new IllegalStateException("broken");
      }
      call.putMetadata("trace-id", "t" + next.incrementAndGet());
    }
  }

  @RegisterExtension
  static final RpcxExtension rpcx =
      RpcxExtension.withServices(new ProbeImpl())
          .client(
              client ->
                  client
                      .metadata("tenant", "a")
                      .intercept(new Recorder("outer"))
                      .intercept(new Tagger())
                      .intercept(new Recorder("inner")));

  @BeforeEach
  void forgetEarlierEvents() {
    Recorder.events.clear();
    Recorder.results.clear();
    ProbeImpl.calls.set(0);
  }

  @Test
  void interceptorsStartAnAttemptInOrderAndEndItInReverse() {
    assertEquals("a", rpcx.create(Probe.class).metadata("tenant"));
    String server = "127.0.0.1:" + rpcx.port();
    assertEquals(
        List.of(
            "outer start metadata 1 " + server,
            "inner start metadata 1 " + server,
            "inner end metadata OK",
            "outer end metadata OK"),
        Recorder.events);
    CallResult result = Recorder.results.get(0);
    assertTrue(result.isSuccess());
    assertTrue(result.requestBytes() > 0 && result.responseBytes() > 0, result.toString());
    assertTrue(result.durationNanos() > 0, result.toString());
  }

  @Test
  void metadataAnInterceptorAddsGoesWithThatCallOnly() throws Exception {
    Probe probe = rpcx.create(Probe.class);
    String first = probe.metadata("trace-id");
    String second = probe.metadataAsync("trace-id").get(5, TimeUnit.SECONDS);
    assertTrue(first.matches("t\\d+") && second.matches("t\\d+"), first + ", " + second);
    assertTrue(!first.equals(second), "each call carries its own: " + first);
    assertEquals("a", probe.metadata("tenant"), "the client's own metadata still goes along");
  }

  @Test
  void anInterceptorFailsACallBeforeItIsSent() {
    UnauthenticatedException e =
        assertThrows(
            UnauthenticatedException.class, () -> rpcx.create(Probe.class).metadata("forbidden"));
    assertEquals("no token for probe/metadata", e.getMessage());
    assertEquals(0, ProbeImpl.calls.get(), "the server never saw the call");
    assertEquals(
        List.of(
            "outer start metadata 1 127.0.0.1:" + rpcx.port(),
            "outer end metadata UNAUTHENTICATED"),
        Recorder.events,
        "interceptors after the one that failed it never see the attempt");
  }

  @Test
  void anInterceptorThatBreaksFailsTheCallAsAnInternalErrorNamingIt() {
    InternalErrorException e =
        assertThrows(
            InternalErrorException.class, () -> rpcx.create(Probe.class).metadata("break"));
    assertEquals(
        "client interceptor io.rpcx.testsuite.ClientInterceptorTest$Tagger failed before probe/metadata"
            + " was sent: java.lang.IllegalStateException: broken",
        e.getMessage());
    assertEquals(0, ProbeImpl.calls.get());
  }

  @Test
  void theEndOfAnAttemptCarriesItsStatusAndFailure() {
    Probe probe = rpcx.create(Probe.class);
    assertThrows(RemoteFailureException.class, () -> probe.fail("boom"));
    assertThrows(CallTimeoutException.class, () -> probe.sleep(1_000));
    assertEquals(
        List.of(
            StatusCode.REMOTE_FAILURE,
            StatusCode.REMOTE_FAILURE,
            StatusCode.TIMEOUT,
            StatusCode.TIMEOUT),
        Recorder.results.stream().map(CallResult::status).toList());
    assertEquals("boom", Recorder.results.get(0).failure().getMessage());
    assertTrue(Recorder.results.get(0).responseBytes() > 0);
    assertEquals(0, Recorder.results.get(2).responseBytes(), "no reply came before the timeout");
    assertTrue(Recorder.results.get(2).failure() instanceof CallTimeoutException);
  }

  @Test
  void everyAttemptOfARetriedCallPassesThroughTheInterceptors() throws Exception {
    int dead;
    try (ServerSocket socket = new ServerSocket(0)) {
      dead = socket.getLocalPort(); // closed again: connections to it are refused
    }
    String live = "127.0.0.1:" + rpcx.port();
    try (RpcxClient client =
        RpcxClient.builder()
            .targets(Probe.class, "127.0.0.1:" + dead, live)
            .loadBalancing(Probe.class, LoadBalancing.ROUND_ROBIN)
            .intercept(new Recorder("r"))
            .build()) {
      Probe probe = client.create(Probe.class);
      for (int i = 0; i < 4; i++) {
        assertEquals("none", probe.metadata("trace-id"));
      }
    }
    int retried = Recorder.events.indexOf("r start metadata 2 " + live);
    assertTrue(retried >= 2, Recorder.events.toString());
    assertEquals(
        List.of(
            "r start metadata 1 127.0.0.1:" + dead,
            "r end metadata UNAVAILABLE",
            "r start metadata 2 " + live,
            "r end metadata OK"),
        Recorder.events.subList(retried - 2, retried + 2));
  }

  @Test
  void anAttemptThatFindsNoServerIsStartedWithoutOneAndEnded() {
    ServiceDiscovery nobody =
        new ServiceDiscovery() {
          @Override
          public Subscription subscribe(String service, Listener listener) {
            listener.onEndpoints(List.of());
            return () -> {};
          }

          @Override
          public String describe() {
            return "an empty list";
          }
        };
    ClientInterceptor broken =
        new ClientInterceptor() {
          @Override
          public void onStart(ClientCall call) {
            throw new IllegalStateException("broken");
          }
        };
    try (RpcxClient client =
        RpcxClient.builder()
            .discovery(nobody)
            .intercept(broken)
            .intercept(new Tagger()) // adds metadata in onStart, as a tracer does
            .intercept(new Recorder("r"))
            .build()) {
      UnavailableException e =
          assertThrows(UnavailableException.class, () -> client.create(Probe.class).metadata("x"));
      assertTrue(e.getMessage().contains("lists no server"), e.getMessage());
    }
    assertEquals(
        List.of("r start metadata 1 null", "r end metadata UNAVAILABLE"),
        Recorder.events,
        "each interceptor is started and ended, whatever the ones before it did");
  }

  @Test
  void anAttemptWhoseInheritedDeadlineHadPassedIsStartedWithoutAServerAndEnded() {
    try (RpcxClient client =
        RpcxClient.builder()
            .target("127.0.0.1", rpcx.port())
            .intercept(new Tagger())
            .intercept(new Recorder("r"))
            .build()) {
      Probe probe = client.create(Probe.class);
      RpcxContext expired = RpcxContext.ROOT.withTimeout(java.time.Duration.ZERO);
      CallTimeoutException e =
          assertThrows(CallTimeoutException.class, () -> expired.call(() -> probe.metadata("x")));
      assertTrue(e.getMessage().contains("was not sent"), e.getMessage());
    }
    assertEquals(List.of("r start metadata 1 null", "r end metadata TIMEOUT"), Recorder.events);
    assertEquals(0, ProbeImpl.calls.get());
  }

  @Test
  void aCallAnInterceptorRefusesAsUnavailableIsNeitherRetriedNorHeldAgainstTheServer() {
    ClientInterceptor breaker =
        new ClientInterceptor() {
          @Override
          public void onStart(ClientCall call) {
            throw UnavailableException.notProcessed("circuit open for " + call.method().method());
          }
        };
    String live = "127.0.0.1:" + rpcx.port();
    try (RpcxClient client =
        RpcxClient.builder()
            .targets(Probe.class, live, "localhost:" + rpcx.port())
            .maxAttempts(3)
            .ejection(1, java.time.Duration.ofMinutes(1), java.time.Duration.ofMinutes(1))
            .intercept(new Recorder("r"))
            .intercept(breaker)
            .build()) {
      Probe probe = client.create(Probe.class);
      for (int i = 0; i < 3; i++) {
        UnavailableException e =
            assertThrows(UnavailableException.class, () -> probe.metadata("x"));
        assertEquals("circuit open for metadata", e.getMessage());
      }
      assertEquals(0, client.stats().retries(), "not retried");
      assertEquals(0, client.stats().ejections(), "no server held to blame");
      assertTrue(
          client.endpoints(Probe.class).stream()
              .allMatch(status -> status.state() == EndpointStatus.State.AVAILABLE),
          client.endpoints(Probe.class).toString());
    }
    assertEquals(6, Recorder.events.size(), "one attempt per call: " + Recorder.events);
  }

  @Test
  void metadataCanBeAddedOnlyBeforeTheAttemptIsSent() {
    List<RuntimeException> refused = new ArrayList<>();
    ClientInterceptor late =
        new ClientInterceptor() {
          @Override
          public void onEnd(ClientCall call, CallResult result) {
            try {
              call.putMetadata("late", "x");
            } catch (IllegalStateException e) {
              refused.add(e);
            }
          }
        };
    try (RpcxClient client =
        RpcxClient.builder().target("127.0.0.1", rpcx.port()).intercept(late).build()) {
      assertEquals("none", client.create(Probe.class).metadata("late"));
    }
    assertEquals(1, refused.size());
    assertEquals(
        "metadata can be added only in ClientInterceptor.onStart, before the attempt is sent",
        refused.get(0).getMessage());
  }
}
