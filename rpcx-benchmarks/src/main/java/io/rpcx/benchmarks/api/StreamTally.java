package io.rpcx.benchmarks.api;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The receiving end of one benchmark stream, whatever the library: counts the elements its
 * callbacks hand over, checks each one's length, and lets the calling thread wait for the end. A
 * stream that delivers a wrong element, ends early or late, or fails, fails the operation, so a
 * system that drops messages cannot look fast.
 *
 * <p>{@link #accept}, {@link #completed} and {@link #failed} are called by the library's callbacks,
 * which each library calls one at a time (Reactive Streams rule 1.3; gRPC's serializing executor);
 * {@link #await()} by the benchmark thread.
 */
public final class StreamTally {
  /** How long a stream may take, as the unary adapters' 60 s call timeout. */
  public static final long TIMEOUT_SECONDS = 60;

  private final int messages;
  private final int length;
  private final CompletableFuture<Long> end = new CompletableFuture<>();
  private long received;

  /** A stream expected to deliver {@code messages} elements of {@code length} characters each. */
  public StreamTally(int messages, int length) {
    this.messages = messages;
    this.length = length;
  }

  /**
   * Counts one element of {@code actualLength} characters; false (and the stream failed) if its
   * length is wrong or it is one too many, in which case the caller cancels the call.
   */
  public boolean accept(int actualLength) {
    if (actualLength != length) {
      return failed(
          new IllegalStateException(
              "element " + received + " has " + actualLength + " characters, expected " + length));
    }
    if (++received > messages) {
      return failed(
          new IllegalStateException("the stream sent more than the " + messages + " asked for"));
    }
    return true;
  }

  /** The stream ended normally: it must have delivered every element. */
  public void completed() {
    if (received != messages) {
      failed(
          new IllegalStateException(
              "the stream ended after " + received + " of " + messages + " elements"));
      return;
    }
    end.complete(received);
  }

  /** The stream failed; always returns false. */
  public boolean failed(Throwable failure) {
    end.completeExceptionally(failure);
    return false;
  }

  /** Waits for the end of the stream and returns the number of elements, or throws why not. */
  public long await() {
    try {
      return end.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("the stream failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "the stream of " + messages + " elements did not end within " + TIMEOUT_SECONDS + " s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the stream", e);
    }
  }
}
