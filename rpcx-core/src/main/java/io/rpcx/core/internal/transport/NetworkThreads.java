package io.rpcx.core.internal.transport;

import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.concurrent.ThreadFactory;

/**
 * The threads of RPCX's event loops, marked so that code that must never wait on one (a blocking
 * call) can tell where it runs with one type check.
 */
public final class NetworkThreads {
  private NetworkThreads() {}

  /** A factory of daemon network threads named {@code name-N}. */
  static ThreadFactory factory(String name) {
    return new DefaultThreadFactory(name, true) {
      @Override
      protected Thread newThread(Runnable task, String threadName) {
        return new NetworkThread(threadGroup, task, threadName);
      }
    };
  }

  /** Whether the current thread is one of RPCX's network threads (client or server). */
  public static boolean isCurrent() {
    return Thread.currentThread() instanceof NetworkThread;
  }

  private static final class NetworkThread extends FastThreadLocalThread {
    NetworkThread(ThreadGroup group, Runnable task, String name) {
      super(group, task, name);
    }
  }
}
