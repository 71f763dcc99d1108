package io.rpcx.server.internal.dispatch;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * {@link WorkerPool.Design#LIFO} (the default from Java 21) and {@link
 * WorkerPool.Design#SPINNING}: one shared queue of calls, and a stack of parked threads; a
 * submitted call wakes the most recently idle thread, and only when no thread is already looking
 * for work. With {@code spin} above zero ({@code SPINNING}) a thread that finds the queue empty
 * first spins for up to {@code spin} (at most half the cores' worth of threads at once) before it
 * parks.
 *
 * <p>Why: on JDK 25 a {@code ForkJoinPool}'s idle thread scans its queue array before it parks
 * (three steps per slot, two slots per thread of {@code maxThreads} rounded up to a power of two:
 * 1,536 steps for 200 threads), and that made {@code ForkJoinPool.deactivate} and the context
 * switches around it most of a server's CPU; the echo at 32 callers ran at a third of JDK 17's
 * rate. Here a thread looking for work polls one queue, and a burst of calls wakes threads one at
 * a time: a woken thread counts as searching until it has taken a call, and only then, if calls
 * are still waiting, wakes the next ({@link #searching}), as Tokio's and Go's schedulers hand on
 * their search; a thread that finishes a call takes the next one without a wake-up. Waking the
 * most recently idle thread keeps a few warm threads busy and lets the others reach their
 * keep-alive and end. Measured on 2 cores against the fork-join pool and the spinning variant
 * (docs/BENCHMARKS.md, "Hand-off designs"): three times the fork-join pool's rate on JDK 25, even
 * with it on JDK 17; spinning cost more CPU per call than it saved in wake-ups on a machine whose
 * cores the event loops and callers need too.
 *
 * <p>No call is stranded: a submitter enqueues its call and then reads {@link #searching}; a
 * searching thread stops counting itself before it looks at the queue one last time, under the
 * lock, where it also puts itself on the idle stack and where a submitter that saw nobody
 * searching takes a thread off it. Either the searcher sees the call, or the submitter sees that
 * nobody searches and wakes or starts a thread.
 */
final class LifoWorkerPool extends WorkerPool {
  /** How long an idle thread of {@link WorkerPool.Design#SPINNING} spins before it parks. */
  static final Duration SPIN = Duration.ofNanos(20_000);

  private static final int RUNNING = 0;
  private static final int SHUTDOWN = 1;
  private static final int STOP = 2;
  private static final int TERMINATED = 3;

  /** What a thread that found no call does next. */
  private enum Next {
    /** It was woken for a call, or found calls queued as it went idle: it counts as searching. */
    WOKEN,
    /** End: its keep-alive passed, or the pool is stopping. */
    EXIT
  }

  private final long keepAliveNanos;
  private final long spinNanos;
  private final int maxSpinning = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
  private final WorkerThreads threadSetup;

  private final ConcurrentLinkedQueue<Counted> calls = new ConcurrentLinkedQueue<>();

  /**
   * Threads looking for a call: spinning, or woken (or started) for one and not yet back to
   * running or idle. A submitter wakes a thread only when this is 0.
   */
  private final AtomicInteger searching = new AtomicInteger();

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition terminated = lock.newCondition();
  /** Parked threads, the most recently idle last. Guarded by {@link #lock}. */
  private final ArrayDeque<Worker> idle = new ArrayDeque<>();
  /** Every live thread, to interrupt on {@link #shutdownNow()}. Guarded by {@link #lock}. */
  private final Set<Worker> workers = new HashSet<>();
  /** Guarded by {@link #lock}. */
  private int threadCount;
  /** Written under {@link #lock}. */
  private volatile int runState = RUNNING;

  LifoWorkerPool(
      int maxThreads,
      int maxQueuedCalls,
      Duration keepAlive,
      WorkerThreads threadSetup,
      Duration spin) {
    super(maxThreads, maxQueuedCalls);
    this.keepAliveNanos = keepAlive.toNanos();
    this.spinNanos = spin.toNanos();
    this.threadSetup = threadSetup;
  }

  @Override
  void handOff(Counted call) {
    calls.offer(call);
    if (runState >= STOP && calls.remove(call)) {
      // shutdownNow() drained the queue after execute() saw the pool running: refuse, as a
      // ThreadPoolExecutor rechecks, rather than leave the call where no thread will look.
      throw new RejectedExecutionException("the pool is stopping");
    }
    if (searching.get() == 0) {
      Worker woken;
      try {
        woken = wakeOrStart(call);
      } catch (RuntimeException | Error e) {
        // No thread could be started for it (out of native threads, say): refuse the call if no
        // other thread took it meanwhile, rather than leave it queued behind an error.
        if (calls.remove(call)) {
          throw new RejectedExecutionException("cannot start a worker thread: " + e, e);
        }
        return;
      }
      if (woken != null) {
        LockSupport.unpark(woken.thread);
      }
    }
  }

  /**
   * Wakes the most recently idle thread, or starts one if none is idle and the pool has room, unless
   * a thread is searching; returns the thread to unpark once the lock is released. Refuses {@code
   * call} (if given and still queued) once the pool has terminated.
   */
  private Worker wakeOrStart(Counted call) {
    lock.lock();
    try {
      if (runState == TERMINATED) {
        if (call != null && calls.remove(call)) {
          throw new RejectedExecutionException("the pool has terminated");
        }
        return null;
      }
      return wakeOrStartLocked();
    } finally {
      lock.unlock();
    }
  }

  private Worker wakeOrStartLocked() {
    if (searching.get() > 0) {
      return null;
    }
    Worker worker = idle.pollLast();
    if (worker != null) {
      worker.parked = false;
      searching.incrementAndGet();
      return worker;
    }
    if (threadCount < maxThreads && runState < STOP) {
      start();
    }
    return null;
  }

  private void start() {
    Worker worker = new Worker();
    threadCount++;
    workers.add(worker);
    searching.incrementAndGet();
    try {
      worker.thread.start();
    } catch (Throwable e) {
      threadCount--;
      workers.remove(worker);
      searching.decrementAndGet();
      throw e;
    }
  }

  /** One thread of the pool. */
  private final class Worker implements Runnable {
    final Thread thread = threadSetup.configure(new Thread(this));
    /** On the idle stack; cleared by whoever takes it off. Written under {@link #lock}. */
    volatile boolean parked;

    @Override
    public void run() {
      try {
        work(this);
      } finally {
        exited(this);
      }
    }
  }

  private void work(Worker me) {
    boolean counted = true; // started for a call, counted in searching
    while (true) {
      Counted call = calls.poll();
      if (spinNanos > 0 && call == null) {
        if (!counted) {
          counted = startSearching();
        }
        if (counted) {
          call = spin();
        }
      }
      if (counted) {
        counted = false;
        // The last searcher that found a call hands the search on if more are waiting.
        if (searching.decrementAndGet() == 0 && call != null && !calls.isEmpty()) {
          Worker woken = wakeOrStart(null);
          if (woken != null) {
            LockSupport.unpark(woken.thread);
          }
        }
      }
      if (call != null) {
        // An interrupt meant for the previous call must not reach this one.
        if (Thread.interrupted() && runState >= STOP) {
          Thread.currentThread().interrupt();
        }
        call.run();
        continue;
      }
      Next next = goIdle(me);
      if (next == Next.EXIT) {
        return;
      }
      counted = next == Next.WOKEN;
    }
  }

  private boolean startSearching() {
    for (int now = searching.get(); now < maxSpinning; ) {
      int seen = searching.compareAndExchange(now, now + 1);
      if (seen == now) {
        return true;
      }
      now = seen;
    }
    return false;
  }

  private Counted spin() {
    long deadline = System.nanoTime() + spinNanos;
    for (int i = 1; ; i++) {
      Thread.onSpinWait();
      Counted call = calls.poll();
      if (call != null) {
        return call;
      }
      if ((i & 15) == 0 && System.nanoTime() - deadline >= 0) {
        return null;
      }
    }
  }

  /** Parks {@code me} until a call wakes it, its keep-alive passes or the pool stops. */
  private Next goIdle(Worker me) {
    lock.lock();
    try {
      if (runState >= STOP || (runState == SHUTDOWN && calls.isEmpty())) {
        return Next.EXIT;
      }
      if (!calls.isEmpty()) {
        return searchAgainLocked();
      }
      me.parked = true;
      idle.addLast(me);
    } finally {
      lock.unlock();
    }
    long deadline = System.nanoTime() + keepAliveNanos;
    while (me.parked) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        lock.lock();
        try {
          if (!me.parked) {
            break;
          }
          idle.remove(me);
          me.parked = false;
          return calls.isEmpty() ? Next.EXIT : searchAgainLocked();
        } finally {
          lock.unlock();
        }
      }
      Thread.interrupted(); // an interrupt does not end the wait: only a wake-up or the keep-alive
      LockSupport.parkNanos(this, left);
    }
    return Next.WOKEN;
  }

  /**
   * A thread about to go idle found calls queued: it looks again counted as searching, so that
   * once it has taken one it wakes the next thread for the others (calls submitted while it
   * searched woke nobody).
   */
  private Next searchAgainLocked() {
    searching.incrementAndGet();
    return Next.WOKEN;
  }

  private void exited(Worker me) {
    Worker woken;
    lock.lock();
    try {
      threadCount--;
      workers.remove(me);
      if (me.parked) {
        idle.remove(me);
        me.parked = false;
      }
      // A thread ended by an Error from a call leaves the queue to the others, or to a new one.
      woken = runState < STOP && !calls.isEmpty() ? wakeOrStartLocked() : null;
      if (threadCount == 0 && (runState == STOP || (runState == SHUTDOWN && calls.isEmpty()))) {
        runState = TERMINATED;
        terminated.signalAll();
      }
    } finally {
      lock.unlock();
    }
    if (woken != null) {
      LockSupport.unpark(woken.thread);
    }
  }

  /** Takes every idle thread off the stack, counted as searching; unpark them after the lock. */
  private List<Worker> wakeAllLocked() {
    List<Worker> woken = new ArrayList<>(idle);
    for (Worker worker : woken) {
      worker.parked = false;
      searching.incrementAndGet();
    }
    idle.clear();
    return woken;
  }

  private void terminateIfIdleLocked() {
    if (threadCount == 0 && runState < TERMINATED) {
      runState = TERMINATED;
      terminated.signalAll();
    }
  }

  @Override
  public void shutdown() {
    List<Worker> woken;
    lock.lock();
    try {
      if (runState == RUNNING) {
        runState = SHUTDOWN;
      }
      woken = wakeAllLocked();
      if (calls.isEmpty()) {
        terminateIfIdleLocked();
      }
    } finally {
      lock.unlock();
    }
    woken.forEach(worker -> LockSupport.unpark(worker.thread));
  }

  @Override
  public List<Runnable> shutdownNow() {
    List<Runnable> dropped = new ArrayList<>();
    List<Worker> woken;
    lock.lock();
    try {
      if (runState < STOP) {
        runState = STOP;
      }
      for (Counted call; (call = calls.poll()) != null; ) {
        dropped.add(call.call);
      }
      woken = wakeAllLocked();
      workers.forEach(worker -> worker.thread.interrupt());
      terminateIfIdleLocked();
    } finally {
      lock.unlock();
    }
    woken.forEach(worker -> LockSupport.unpark(worker.thread));
    dropped(dropped.size());
    return dropped;
  }

  @Override
  public boolean isShutdown() {
    return runState >= SHUTDOWN;
  }

  @Override
  public boolean isTerminated() {
    return runState == TERMINATED;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    long nanos = unit.toNanos(timeout);
    lock.lock();
    try {
      while (runState != TERMINATED) {
        if (nanos <= 0) {
          return false;
        }
        nanos = terminated.awaitNanos(nanos);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public int queuedCalls() {
    return calls.size();
  }

  @Override
  boolean isQuiescent() {
    lock.lock();
    try {
      return idle.size() == threadCount && calls.isEmpty();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public int threads() {
    lock.lock();
    try {
      return threadCount;
    } finally {
      lock.unlock();
    }
  }
}
