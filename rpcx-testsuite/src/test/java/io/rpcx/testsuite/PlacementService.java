package io.rpcx.testsuite;

import io.rpcx.annotation.Blocking;
import io.rpcx.annotation.NonBlocking;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Methods of every placement: each answers with the name of the thread that ran it, so that a
 * test sees where the server ran it (a network thread, rpcx-server-io-*, or the executor).
 */
@RPCXClient(name = "placement")
public interface PlacementService {

  /** Synchronous, not annotated: may block, runs on the executor. */
  String plain();

  /** Asynchronous, not annotated: never blocks, runs on the network thread. */
  CompletableFuture<String> async();

  /** A {@code CompletionStage}, not annotated: the same. */
  CompletionStage<String> stage();

  /** Synchronous, {@code @NonBlocking} in the implementation. */
  String marked();

  /** Asynchronous, {@code @Blocking} in the implementation. */
  CompletableFuture<String> asyncButBlocking();

  /** Synchronous, {@code @NonBlocking} here on the interface, not in the implementation. */
  @NonBlocking
  String markedOnTheInterface();

  /** The context class loader of the thread that runs it, by identity. */
  int contextLoader();

  /** The same, asynchronous: on the network thread. */
  CompletableFuture<Integer> contextLoaderAsync();

  /** The implementation. */
  @RPCXServer(name = "placement")
  class Impl implements PlacementService {
    @Override
    public String plain() {
      return Thread.currentThread().getName();
    }

    @Override
    public CompletableFuture<String> async() {
      return CompletableFuture.completedFuture(Thread.currentThread().getName());
    }

    @Override
    public CompletionStage<String> stage() {
      return CompletableFuture.completedFuture(Thread.currentThread().getName());
    }

    @NonBlocking
    @Override
    public String marked() {
      return Thread.currentThread().getName();
    }

    @Blocking
    @Override
    public CompletableFuture<String> asyncButBlocking() {
      return CompletableFuture.completedFuture(Thread.currentThread().getName());
    }

    @Override
    public String markedOnTheInterface() {
      return Thread.currentThread().getName();
    }

    @Override
    public int contextLoader() {
      return System.identityHashCode(Thread.currentThread().getContextClassLoader());
    }

    @Override
    public CompletableFuture<Integer> contextLoaderAsync() {
      return CompletableFuture.completedFuture(contextLoader());
    }
  }

  /**
   * What a proxy library (Spring's CGLIB) makes of a service: a subclass overriding every method
   * without its annotations. The overridden method's annotation still counts.
   */
  final class Subclassed extends Impl {
    @Override
    public String marked() {
      return super.marked();
    }

    @Override
    public CompletableFuture<String> asyncButBlocking() {
      return super.asyncButBlocking();
    }
  }

  /** Every method non-blocking by its class's annotation, but one. */
  @NonBlocking
  @RPCXServer(name = "placement")
  final class AllNonBlocking extends Impl {
    @Blocking
    @Override
    public String marked() {
      return Thread.currentThread().getName();
    }
  }

  /** A service whose non-blocking method blocks until the test lets it go. */
  @RPCXClient(name = "stuck")
  interface Stuck {
    String block();

    String quick();

    /** The implementation, with the gate. */
    @RPCXServer(name = "stuck")
    @NonBlocking
    final class Impl implements Stuck {
      final CountDownLatch entered = new CountDownLatch(1);
      final CountDownLatch gate = new CountDownLatch(1);

      @Override
      public String block() {
        entered.countDown();
        try {
          gate.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return "released";
      }

      @Override
      public String quick() {
        return "quick";
      }
    }
  }
}
