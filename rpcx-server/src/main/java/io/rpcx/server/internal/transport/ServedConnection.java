package io.rpcx.server.internal.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.socket.SocketChannel;
import io.rpcx.core.StatusCode;

/**
 * A client connection as the server's transport keeps it, whatever protocol it speaks (RPCX's own
 * frames, gRPC over HTTP/2): counted against the connection limit, told to go away when the server
 * drains, and closed when its grace period is over.
 */
interface ServedConnection {

  /** Refuses new calls from now on, saying {@code reason}, and tells the client (GOAWAY). */
  void goAway(StatusCode code, String reason);

  /**
   * As {@link #goAway}, for this connection only (it reached its maximum age): the server keeps
   * serving, and the client may open another connection at once.
   */
  void retire(String reason);

  /**
   * Closes the connection now, the grace period of a shutdown being over: its open streams end
   * UNAVAILABLE saying {@code reason} first. Returns the close's future.
   */
  ChannelFuture close(String reason);

  /**
   * Closes {@code channel} now as a crashed peer or a dropped network would: with a TCP reset
   * (linger 0), no GOAWAY. On its event loop.
   */
  static void resetNow(Channel channel) {
    if (channel instanceof SocketChannel socket) {
      socket.config().setSoLinger(0);
    }
    channel.close();
  }
}
