package io.rpcx.core.internal.runtime;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;

/**
 * Virtual threads (Java 21+, JEP 444), reached from RPCX's Java 17 bytecode through method handles
 * looked up once: {@code Thread.ofVirtual().name(prefix, 1).factory()} and {@code
 * Executors.newThreadPerTaskExecutor(factory)}. After that nothing is reflective: the executor and
 * the factory are ordinary {@link ExecutorService} and {@link ThreadFactory} objects.
 *
 * <p>A multi-release jar with a Java 21 class would need a JDK 21 to build, and the build's
 * baseline is Java 17; the handles need nothing but the JVM the code runs on.
 */
public final class VirtualThreads {
  /** The feature release from which virtual threads are final (JEP 444). */
  public static final int JAVA_RELEASE = 21;

  /** {@code () -> Thread.Builder.OfVirtual}, or null before Java 21. */
  private static final MethodHandle OF_VIRTUAL;
  /** {@code (Thread.Builder, String, long) -> Thread.Builder}. */
  private static final MethodHandle NAME;
  /** {@code (Thread.Builder) -> ThreadFactory}. */
  private static final MethodHandle FACTORY;
  /** {@code (ThreadFactory) -> ExecutorService}. */
  private static final MethodHandle THREAD_PER_TASK;
  /** {@code (Thread) -> boolean}. */
  private static final MethodHandle IS_VIRTUAL;

  static {
    MethodHandle ofVirtual = null;
    MethodHandle name = null;
    MethodHandle factory = null;
    MethodHandle threadPerTask = null;
    MethodHandle isVirtual = null;
    if (Runtime.version().feature() >= JAVA_RELEASE) {
      try {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        Class<?> builder = Class.forName("java.lang.Thread$Builder");
        Class<?> ofVirtualType = Class.forName("java.lang.Thread$Builder$OfVirtual");
        ofVirtual =
            lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtualType));
        name =
            lookup.findVirtual(
                builder, "name", MethodType.methodType(builder, String.class, long.class));
        factory =
            lookup.findVirtual(builder, "factory", MethodType.methodType(ThreadFactory.class));
        threadPerTask =
            lookup.findStatic(
                java.util.concurrent.Executors.class,
                "newThreadPerTaskExecutor",
                MethodType.methodType(ExecutorService.class, ThreadFactory.class));
        isVirtual =
            lookup.findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(
            "Java " + Runtime.version() + " lacks the virtual-thread API of Java 21: " + e);
      }
    }
    OF_VIRTUAL = ofVirtual;
    NAME = name;
    FACTORY = factory;
    THREAD_PER_TASK = threadPerTask;
    IS_VIRTUAL = isVirtual;
  }

  private VirtualThreads() {}

  /** Whether this JVM has virtual threads (Java 21 or later). */
  public static boolean supported() {
    return OF_VIRTUAL != null;
  }

  /**
   * Checks that this JVM has virtual threads.
   *
   * @param feature what needs them, named as the user wrote it: {@code "virtualThreads()"}
   * @throws UnsupportedOperationException on Java 17 to 20, naming the feature and the Java found
   */
  public static void require(String feature) {
    if (!supported()) {
      throw new UnsupportedOperationException(
          feature + " needs Java " + JAVA_RELEASE + " or later (virtual threads, JEP 444); this JVM"
              + " is Java " + Runtime.version() + " (" + System.getProperty("java.home") + ")");
    }
  }

  /**
   * A factory of virtual threads named {@code prefix + n}, n counting from 1.
   *
   * @throws UnsupportedOperationException before Java 21
   */
  public static ThreadFactory factory(String prefix) {
    require("virtual threads");
    try {
      Object builder = OF_VIRTUAL.invoke();
      builder = NAME.invoke(builder, prefix, 1L);
      return (ThreadFactory) FACTORY.invoke(builder);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("Thread.ofVirtual() failed", e);
    }
  }

  /**
   * An executor that starts a virtual thread named {@code prefix + n} for each task, and whose
   * {@code shutdown}/{@code awaitTermination} cover every thread it started.
   *
   * @throws UnsupportedOperationException before Java 21
   */
  public static ExecutorService newThreadPerTaskExecutor(String prefix) {
    ThreadFactory factory = factory(prefix);
    try {
      return (ExecutorService) THREAD_PER_TASK.invoke(factory);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("Executors.newThreadPerTaskExecutor failed", e);
    }
  }

  /** Whether {@code thread} is virtual; always false before Java 21. */
  public static boolean isVirtual(Thread thread) {
    if (IS_VIRTUAL == null) {
      return false;
    }
    try {
      return (boolean) IS_VIRTUAL.invokeExact(thread);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("Thread.isVirtual() failed", e);
    }
  }
}
