package io.rpcx.client.internal.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.rpcx.client.internal.call.CallChannel;
import io.rpcx.client.internal.call.PendingCall;
import io.rpcx.core.UnavailableException;
import io.rpcx.core.internal.transport.FrameDecoder;
import io.rpcx.core.internal.transport.PrefaceHandler;

/**
 * One server address and the connection the client keeps to it. The connection is opened on the
 * first call and replaced when it closes or the server sends GOAWAY; calls made meanwhile wait in
 * the new connection's queue. Thread-safe.
 */
final class Endpoint implements CallChannel {
  private final String host;
  private final int port;
  private final String address;
  private final Bootstrap bootstrap;
  private final int maxFrameSize;
  private final int maxConcurrentCalls;
  private volatile ClientConnection current;
  private boolean closed;

  Endpoint(String host, int port, Bootstrap bootstrap, int maxFrameSize, int maxConcurrentCalls) {
    this.host = host;
    this.port = port;
    this.address = host + ":" + port;
    this.bootstrap = bootstrap;
    this.maxFrameSize = maxFrameSize;
    this.maxConcurrentCalls = maxConcurrentCalls;
  }

  @Override
  public String address() {
    return address;
  }

  @Override
  public void send(PendingCall call) {
    ClientConnection connection = current;
    if (connection == null || !connection.isUsable()) {
      connection = connection(call);
    }
    connection.send(call);
  }

  private synchronized ClientConnection connection(PendingCall call) {
    if (closed) {
      throw new UnavailableException(
          call.model().displayName() + " was not sent to " + address + ": the client is closed",
          true,
          null);
    }
    ClientConnection connection = current;
    if (connection != null && connection.isUsable()) {
      return connection;
    }
    connection = new ClientConnection(this, maxFrameSize, maxConcurrentCalls);
    ClientConnectionHandler handler = new ClientConnectionHandler(address, connection);
    ChannelFuture connect =
        bootstrap
            .clone()
            .handler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel channel) {
                    channel
                        .pipeline()
                        .addLast("preface", PrefaceHandler.forClient())
                        .addLast("frames", new FrameDecoder(maxFrameSize))
                        .addLast("connection", handler);
                  }
                })
            .connect(host, port);
    connection.connecting(connect);
    current = connection;
    return connection;
  }

  /** Forgets {@code connection} if it is the current one, so the next call opens a new one. */
  synchronized void detach(ClientConnection connection) {
    if (current == connection) {
      current = null;
    }
  }

  /** Refuses new calls and closes the connection; its pending calls fail as unavailable. */
  synchronized void close() {
    closed = true;
    ClientConnection connection = current;
    current = null;
    if (connection != null) {
      connection.close("the client is closed");
    }
  }
}
