package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.annotation.Method;
import io.rpcx.annotation.OwnDeadline;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.core.CallTimeoutException;
import io.rpcx.core.CancelledException;
import io.rpcx.core.RpcxContext;
import io.rpcx.testing.RpcxExtension;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Implementation code sees the call it serves, and the calls it makes on behalf of that call end by
 * its deadline: a front service (2 s timeout) calls a back service (10 s timeout) on the same
 * server, synchronously, from a {@code CompletableFuture}, and across a thread hop.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CallContextTest {

  @RPCXClient(name = "back")
  public interface Back {
    /** The time the back service has left, as it sees it; -1 without a deadline. */
    @Method(timeoutMillis = 10_000)
    long remainingMillis();

    @Method(timeoutMillis = 10_000)
    CompletableFuture<Long> remainingMillisAsync();

    @Method(timeoutMillis = 10_000)
    String sleep(long millis) throws InterruptedException;
  }

  /** The back service, as a client that calls it with its own deadline whoever calls it. */
  @RPCXClient(name = "back")
  @OwnDeadline
  public interface BackOnItsOwnDeadline {
    @Method(timeoutMillis = 10_000)
    long remainingMillis();
  }

  @RPCXClient(name = "front")
  public interface Front {
    /**
     * What the call's context says: service/method, tenant metadata, whether the address is known.
     */
    String describe();

    @Method(timeoutMillis = 2_000)
    long backRemainingSync();

    @Method(timeoutMillis = 2_000)
    CompletableFuture<Long> backRemainingAcrossAWrappedHop();

    @Method(timeoutMillis = 2_000)
    CompletableFuture<Long> backRemainingAcrossAPlainHop();

    /**
     * Calls the back service asynchronously twice, the second from a stage chained on the first.
     */
    @Method(timeoutMillis = 2_000)
    CompletableFuture<Long> backRemainingInAChainedStage();

    @Method(timeoutMillis = 2_000)
    long backRemainingWithItsOwnDeadline();

    /** Calls the back service to sleep longer than this call's deadline; records what happened. */
    @Method(timeoutMillis = 400)
    String slowBack();

    /** Sleeps past this call's deadline, then calls the back service; records what happened. */
    @Method(timeoutMillis = 200)
    String callAfterTheDeadline() throws InterruptedException;
  }

  @RPCXServer(name = "back")
  public static final class BackImpl implements Back {
    @Override
    public long remainingMillis() {
      return RpcxContext.current().timeRemaining().map(Duration::toMillis).orElse(-1L);
    }

    @Override
    public CompletableFuture<Long> remainingMillisAsync() {
      return CompletableFuture.completedFuture(remainingMillis());
    }

    @Override
    public String sleep(long millis) throws InterruptedException {
      Thread.sleep(millis);
      return "slept";
    }
  }

  @RPCXServer(name = "front")
  public static final class FrontImpl implements Front {
    static volatile Back back;
    static volatile BackOnItsOwnDeadline backOnItsOwnDeadline;
    static final ExecutorService pool = Executors.newSingleThreadExecutor();
    static final BlockingQueue<String> outcomes = new LinkedBlockingQueue<>();

    @Override
    public String describe() {
      RpcxContext call = RpcxContext.current();
      return call.service()
          + "/"
          + call.method()
          + " tenant="
          + call.metadata().get("tenant")
          + " address known="
          + (call.remoteAddress() != null)
          + " deadline="
          + call.hasDeadline();
    }

    @Override
    public long backRemainingSync() {
      return back.remainingMillis();
    }

    @Override
    public CompletableFuture<Long> backRemainingAcrossAWrappedHop() {
      return CompletableFuture.supplyAsync(back::remainingMillis, RpcxContext.propagating(pool));
    }

    @Override
    public CompletableFuture<Long> backRemainingAcrossAPlainHop() {
      return CompletableFuture.supplyAsync(back::remainingMillis, pool);
    }

    @Override
    public CompletableFuture<Long> backRemainingInAChainedStage() {
      // The second call is made on the thread that completed the first call's future.
      return back.remainingMillisAsync().thenCompose(first -> back.remainingMillisAsync());
    }

    @Override
    public long backRemainingWithItsOwnDeadline() {
      return backOnItsOwnDeadline.remainingMillis();
    }

    @Override
    public String slowBack() {
      try {
        return back.sleep(3_000);
      } catch (CallTimeoutException | CancelledException | InterruptedException e) {
        outcomes.add(e.getMessage());
        return "timed out";
      }
    }

    @Override
    public String callAfterTheDeadline() throws InterruptedException {
      Thread.sleep(300);
      try {
        return back.sleep(0);
      } catch (CallTimeoutException e) {
        outcomes.add(e.getMessage());
        return "not sent";
      }
    }
  }

  @RegisterExtension
  static final RpcxExtension rpcx =
      RpcxExtension.withServices(new FrontImpl(), new BackImpl())
          .client(client -> client.metadata("tenant", "a"));

  @BeforeAll
  static void frontCallsBackThroughTheSameServer() {
    FrontImpl.back = rpcx.create(Back.class);
    FrontImpl.backOnItsOwnDeadline = rpcx.create(BackOnItsOwnDeadline.class);
  }

  @AfterAll
  static void stopThePool() {
    FrontImpl.pool.shutdownNow();
  }

  @Test
  void implementationCodeReadsTheCallItServes() {
    assertEquals(
        "front/describe tenant=a address known=true deadline=true",
        rpcx.create(Front.class).describe());
  }

  @Test
  void aCallMadeWhileServingEndsByTheServedCallsDeadline() {
    long left = rpcx.create(Front.class).backRemainingSync();
    assertTrue(left > 0 && left <= 2_000, "the back call had " + left + " ms, not the front's 2 s");
  }

  @Test
  void theDeadlineCrossesAThreadHopThroughAPropagatingExecutor() throws Exception {
    long left = rpcx.create(Front.class).backRemainingAcrossAWrappedHop().get(5, TimeUnit.SECONDS);
    assertTrue(left > 0 && left <= 2_000, "the back call had " + left + " ms");
  }

  @Test
  void aCallMadeInAStageChainedOnAnRpcxCallKeepsTheServedCallsDeadline() throws Exception {
    long left = rpcx.create(Front.class).backRemainingInAChainedStage().get(5, TimeUnit.SECONDS);
    assertTrue(left > 0 && left <= 2_000, "the second back call had " + left + " ms");
  }

  @Test
  void aPlainThreadHopLeavesTheContextBehind() throws Exception {
    long left = rpcx.create(Front.class).backRemainingAcrossAPlainHop().get(5, TimeUnit.SECONDS);
    assertTrue(left > 2_000 && left <= 10_000, "the back call had " + left + " ms");
  }

  @Test
  void aMethodWithItsOwnDeadlineKeepsIt() {
    long left = rpcx.create(Front.class).backRemainingWithItsOwnDeadline();
    assertTrue(left > 2_000 && left <= 10_000, "the back call had " + left + " ms");
  }

  @Test
  void aCallThatOutlastsTheServedCallsDeadlineTimesOutSayingWhy() throws Exception {
    assertThrowsTimeout(() -> rpcx.create(Front.class).slowBack());
    String outcome = FrontImpl.outcomes.poll(10, TimeUnit.SECONDS);
    // The served call's deadline passes on the server as its client, timing out, cancels it: the
    // call it made ends by whichever the server sees first.
    assertTrue(
        outcome != null
            && (outcome.matches(
                    "back/sleep timed out after \\d+ ms waiting for 127\\.0\\.0\\.1:\\d+: the"
                        + " deadline of front/slowBack, the call being served, passed \\(its own"
                        + " timeout is 10000 ms\\)")
                || outcome.matches(
                    "back/sleep was cancelled: the call being served, front/slowBack, was"
                        + " cancelled \\(.+\\)")),
        String.valueOf(outcome));
  }

  @Test
  void aCallMadeAfterTheServedCallsDeadlineIsNotSent() throws Exception {
    assertThrowsTimeout(() -> rpcx.create(Front.class).callAfterTheDeadline());
    assertEquals(
        "back/sleep was not sent: the deadline of front/callAfterTheDeadline, the call being"
            + " served, had passed when it was called",
        FrontImpl.outcomes.poll(10, TimeUnit.SECONDS));
  }

  private static void assertThrowsTimeout(ThrowingCall call) {
    try {
      call.run();
    } catch (CallTimeoutException expected) {
      return;
    } catch (Exception e) {
      throw new AssertionError("expected a timeout, got " + e, e);
    }
    throw new AssertionError("expected a timeout");
  }

  private interface ThrowingCall {
    void run() throws Exception;
  }
}
