package io.rpcx.testsuite;

import static org.testng.Assert.assertEquals;

import ch.qos.logback.classic.Level;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.RemoteFailureException;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.reactivestreams.FlowAdapters;
import org.reactivestreams.tck.TestEnvironment;
import org.reactivestreams.tck.flow.FlowPublisherVerification;
import org.testng.IHookCallBack;
import org.testng.IHookable;
import org.testng.ITestResult;
import org.testng.SkipException;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * The {@code Flow.Publisher} a client proxy returns for a server-stream method passes the Reactive
 * Streams TCK: every publisher under test is a call to a running RPCX server (in-process here,
 * over TCP in {@link RemotePublisherTcpTckTest}), through the real client and server stacks,
 * streaming the number of elements the TCK asks for.
 *
 * <p>The TCK's "failed publisher" signals {@code onError} to a subscriber that has not requested
 * anything. An RPCX call is sent when its subscriber first requests (docs/PROTOCOL.md, section 5),
 * so a call the server fails fails once requested, and not before; Reactive Streams allows that
 * (rule 1.9 lets a publisher reject a subscription, it does not make it). The two rules that
 * subscribe without requesting are skipped, and {@link
 * #aCallTheServerFailsSignalsOnErrorAfterOnSubscribeOnceRequested} checks the same failing call
 * with a request. The TCK's seven {@code untested_} rules have no test and are skipped by it.
 *
 * <p>A TestNG test, run on the JUnit Platform by the TestNG engine. Every wait of the TCK is
 * bounded by its {@link TestEnvironment}'s timeouts, and every test by {@link
 * #TEST_TIMEOUT_SECONDS}.
 */
public class RemotePublisherTckTest extends FlowPublisherVerification<Long> implements IHookable {
  private static final AtomicInteger NAMES = new AtomicInteger();
  /** A test still running after this is interrupted (the TCK's waits are all interruptible). */
  static final long TEST_TIMEOUT_SECONDS = 30;
  private static final String SENT_ON_DEMAND =
      "an RPCX call is sent on the first request(n): a call the server fails signals onError only"
          + " after a request (aCallTheServerFailsSignalsOnErrorAfterOnSubscribeOnceRequested)";

  /** Where the publishers' calls go. */
  enum Transport {
    IN_PROCESS,
    TCP
  }

  /** Elements as asked, and a call that fails on the server. */
  @RPCXClient(name = "tck")
  public interface Numbers {
    /** 0, 1, 2, … {@code count - 1}; without end for {@code Long.MAX_VALUE}. */
    Flow.Publisher<Long> range(long count);

    /** A call whose implementation fails before it returns a publisher. */
    Flow.Publisher<Long> broken();
  }

  /** The implementation. */
  @RPCXServer(name = "tck")
  public static final class NumbersImpl implements Numbers {
    @Override
    public Flow.Publisher<Long> range(long count) {
      return new Range(count);
    }

    @Override
    public Flow.Publisher<Long> broken() {
      throw new IllegalStateException("no numbers today");
    }
  }

  private final Transport transport;
  private final TestEnvironment env;
  private RpcxServer server;
  private RpcxClient client;
  private Numbers numbers;
  private ScheduledExecutorService watchdog;

  public RemotePublisherTckTest() {
    this(Transport.IN_PROCESS);
  }

  RemotePublisherTckTest(Transport transport) {
    // Signals that must come are awaited up to 2 s (returning as soon as they do); signals that
    // must not come are watched for 100 ms. An expected onError is looked for once, after the poll
    // timeout (TestEnvironment.Receptacle.expectError does not poll again): 500 ms.
    this(transport, new TestEnvironment(2_000, 100, 500));
  }

  private RemotePublisherTckTest(Transport transport, TestEnvironment env) {
    super(env, 1_000); // a cancelled subscriber must be unreachable 1 s after its cancel
    this.transport = transport;
    this.env = env;
  }

  /** What the tests log: the failure of {@link Numbers#broken()}, and nothing else. */
  private LogCapture logs;

  @BeforeClass
  public void start() {
    logs = LogCapture.warnings("io.rpcx");
    watchdog =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "tck-watchdog");
              thread.setDaemon(true);
              return thread;
            });
    RpcxServer.Builder serverBuilder = RpcxServer.builder().service(new NumbersImpl());
    if (transport == Transport.TCP) {
      server = serverBuilder.bindAddress("127.0.0.1").port(0).build().start();
      client = RpcxClient.builder().target("127.0.0.1", server.port()).build();
    } else {
      String name = "tck-" + NAMES.incrementAndGet();
      server = serverBuilder.inProcess(name).build().start();
      client = RpcxClient.builder().inProcess(name).build();
    }
    numbers = client.create(Numbers.class);
  }

  @AfterClass(alwaysRun = true)
  public void stop() {
    if (watchdog != null) {
      watchdog.shutdownNow();
    }
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
    if (logs != null) {
      try {
        logs.assertOnly(
            Level.WARN,
            "WARN tck/broken threw java\\.lang\\.IllegalStateException: no numbers today \\(for"
                + " [^)]+\\) \\[java\\.lang\\.IllegalStateException: no numbers today\\]");
      } finally {
        logs.close();
      }
    }
  }

  /** Runs each test method, interrupting it if it is still running after the timeout. */
  @Override
  public void run(IHookCallBack test, ITestResult result) {
    Thread runner = Thread.currentThread();
    boolean[] over = {false};
    var alarm =
        watchdog.schedule(
            () -> {
              synchronized (over) {
                if (!over[0]) {
                  runner.interrupt();
                }
              }
            },
            TEST_TIMEOUT_SECONDS,
            TimeUnit.SECONDS);
    try {
      test.runTestMethod(result);
    } finally {
      alarm.cancel(false);
      synchronized (over) {
        over[0] = true;
      }
      Thread.interrupted(); // an interrupt of this test must not reach the next
    }
  }

  @Override
  public Flow.Publisher<Long> createFlowPublisher(long elements) {
    return numbers.range(elements);
  }

  @Override
  public Flow.Publisher<Long> createFailedFlowPublisher() {
    return numbers.broken();
  }

  @Override
  @Test
  public void optional_spec104_mustSignalOnErrorWhenFails() {
    throw new SkipException(SENT_ON_DEMAND);
  }

  @Override
  @Test
  public void
      required_spec109_mayRejectCallsToSubscribeIfPublisherIsUnableOrUnwillingToServeThemRejectionMustTriggerOnErrorAfterOnSubscribe() {
    throw new SkipException(SENT_ON_DEMAND);
  }

  /** Rules 1.4 and 1.9 for a call the server fails, with the request that sends it. */
  @Test
  public void aCallTheServerFailsSignalsOnErrorAfterOnSubscribeOnceRequested() throws Exception {
    // A signal before onSubscribe, a second onError or an element after it is an async error.
    TestEnvironment.ManualSubscriber<Long> subscriber =
        env.newManualSubscriber(FlowAdapters.toPublisher(createFailedFlowPublisher()));
    subscriber.request(1);
    RemoteFailureException failure = subscriber.expectError(RemoteFailureException.class);
    assertEquals(failure.remoteClassName(), "java.lang.IllegalStateException");
    subscriber.expectNone();
    env.verifyNoAsyncErrorsNoDelay();
  }

  /**
   * The server's publisher: {@code 0 … count - 1} as requested, on the thread that requests,
   * without recursion (a request from {@code onNext} adds to the demand the running loop serves).
   */
  static final class Range implements Flow.Publisher<Long> {
    private final long count;

    Range(long count) {
      this.count = count;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super Long> subscriber) {
      AtomicLong demand = new AtomicLong();
      AtomicBoolean done = new AtomicBoolean();
      long[] next = {0};
      subscriber.onSubscribe(
          new Flow.Subscription() {
            @Override
            public void request(long n) {
              if (n <= 0) {
                if (done.compareAndSet(false, true)) {
                  subscriber.onError(new IllegalArgumentException("request(" + n + ")"));
                }
                return;
              }
              if (demand.getAndAccumulate(n, Range::add) != 0) {
                return; // the loop running now serves it
              }
              long served = 0;
              while (true) {
                long wanted = demand.get();
                while (served < wanted && next[0] < count && !done.get()) {
                  subscriber.onNext(next[0]++);
                  served++;
                }
                if (next[0] == count && done.compareAndSet(false, true)) {
                  subscriber.onComplete();
                  return;
                }
                if (done.get() || demand.addAndGet(-served) == 0) {
                  return;
                }
                served = 0;
              }
            }

            @Override
            public void cancel() {
              done.set(true);
            }
          });
    }

    private static long add(long current, long more) {
      long sum = current + more;
      return sum < 0 ? Long.MAX_VALUE : sum;
    }
  }
}
