package io.rpcx.client.internal.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.rpcx.client.internal.call.PendingCall;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * One connection of a {@link ServerConnector}, in whichever protocol the server speaks: RPCX's own
 * ({@link ClientConnection}) or gRPC ({@link GrpcConnection}). Its life is the same in both: made
 * before its channel, connecting, a handshake (RPCX's preface, or HTTP/2's SETTINGS) before any
 * call is written, then carrying calls until it drains (GOAWAY, retirement) or closes, when the
 * calls it carries fail with what {@link CallFailures} says. Thread-safe.
 */
interface Connection {

  /** The pipeline of its channel to {@code host:port}. */
  ChannelHandler initializer(String host, int port);

  /** Follows the connection attempt; a failure fails every call queued meanwhile. */
  void connecting(ChannelFuture connectFuture);

  /** Its channel, once {@link #connecting} was called; {@code null} before. */
  Channel channel();

  /** Whether new calls may be sent on it. */
  boolean isUsable();

  /** Calls sent on it and not yet ended. */
  int pendingCount();

  /**
   * Encodes {@code call} on the calling thread and queues it; it is written once the handshake is
   * done.
   *
   * @throws io.rpcx.core.RpcxException if it cannot be encoded or sent; it was not sent
   */
  void send(PendingCall call);

  /**
   * For a probe's connection, completed when the server answers its PING after the handshake;
   * {@code null} for others.
   */
  CompletableFuture<Void> probe();

  /**
   * Takes no new calls and closes once the calls in flight have ended; calls still queued fail as
   * not sent. {@code onClosed} runs once it is closed.
   */
  void drain(String reason, Runnable onClosed);

  /** Closes it now; calls in flight fail as unavailable. */
  void close(String reason);

  /**
   * Runs {@code onFailed} with the cause if {@code connectFuture} fails, as a task of the channel's
   * event loop: a connect that fails at once (an unknown host, no in-process server of that name)
   * completes inside {@code connect()}, under the connector's lock and before the connector made
   * the connection its current one. At once if the event loop is shut down (the client closes).
   */
  static void onConnectFailure(ChannelFuture connectFuture, Consumer<Throwable> onFailed) {
    connectFuture.addListener(
        future -> {
          if (future.isSuccess()) {
            return;
          }
          Throwable cause = future.cause();
          try {
            connectFuture.channel().eventLoop().execute(() -> onFailed.accept(cause));
          } catch (RejectedExecutionException e) {
            onFailed.accept(cause);
          }
        });
  }
}
