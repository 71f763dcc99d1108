package io.rpcx.kubernetes;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on 127.0.0.1 in front of the mock API server whose connections a test cuts, as a
 * restarted API server or a broken network does: {@link #cut()} closes every connection and
 * closes the port (connections are refused) until {@link #restore()} opens it again.
 */
final class CuttableProxy implements AutoCloseable {
  private final InetSocketAddress target;
  private final int port;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private volatile ServerSocket listener;

  CuttableProxy(InetSocketAddress target) throws IOException {
    this.target = target;
    this.port = listen(0);
  }

  private int listen(int port) throws IOException {
    ServerSocket socket = new ServerSocket();
    socket.setReuseAddress(true);
    socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
    listener = socket;
    Thread acceptor = new Thread(() -> accept(socket), "test-proxy-accept");
    acceptor.setDaemon(true);
    acceptor.start();
    return socket.getLocalPort();
  }

  int port() {
    return port;
  }

  private void accept(ServerSocket listener) {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket(target.getAddress(), target.getPort());
        open.add(client);
        open.add(server);
        if (listener.isClosed()) { // cut while this one was being accepted
          close(client);
          close(server);
          continue;
        }
        pipe(client, server);
        pipe(server, client);
      } catch (IOException e) {
        // closed, or one connection failed: the others go on
      }
    }
  }

  private void pipe(Socket from, Socket to) {
    Thread thread =
        new Thread(
            () -> {
              byte[] buffer = new byte[16 * 1024];
              try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                  out.write(buffer, 0, n);
                  out.flush();
                }
              } catch (IOException e) {
                // cut, or closed by a peer
              } finally {
                close(from);
                close(to);
              }
            },
            "test-proxy-pipe");
    thread.setDaemon(true);
    thread.start();
  }

  /** Closes every connection and refuses new ones. */
  void cut() {
    try {
      listener.close();
    } catch (IOException e) {
      // closed already
    }
    for (Socket socket : open) {
      close(socket);
    }
  }

  /** Accepts connections again, on the same port. */
  void restore() {
    // The port may be held for a moment by a connection that is still closing.
    for (int attempt = 1; ; attempt++) {
      try {
        listen(port);
        return;
      } catch (IOException e) {
        if (attempt == 100) {
          throw new java.io.UncheckedIOException(e);
        }
        java.util.concurrent.locks.LockSupport.parkNanos(20_000_000L);
      }
    }
  }

  private void close(Socket socket) {
    open.remove(socket);
    try {
      socket.close();
    } catch (IOException e) {
      // closed already
    }
  }

  @Override
  public void close() {
    cut();
  }
}
