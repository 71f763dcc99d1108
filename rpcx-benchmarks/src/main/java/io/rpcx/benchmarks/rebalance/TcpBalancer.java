package io.rpcx.benchmarks.rebalance;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A layer-4 load balancer on 127.0.0.1, as a Kubernetes ClusterIP Service (kube-proxy) or a cloud
 * TCP load balancer is: each new connection goes to the next backend in turn, and stays there for
 * its life. Backends may be added while it runs. A client that keeps its connections open never
 * reaches a backend added after it connected, which is what a maximum connection age is for.
 */
public final class TcpBalancer implements AutoCloseable {
  private final ServerSocket listener;
  private final List<InetSocketAddress> backends = new CopyOnWriteArrayList<>();
  private final AtomicInteger next = new AtomicInteger();
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();

  public TcpBalancer(List<InetSocketAddress> backends) throws IOException {
    this.backends.addAll(backends);
    this.listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "balancer-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public int port() {
    return listener.getLocalPort();
  }

  /** Sends new connections to {@code backend} too. */
  public void add(InetSocketAddress backend) {
    backends.add(backend);
  }

  private void accept() {
    while (!listener.isClosed()) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException e) {
        return; // closed
      }
      InetSocketAddress backend =
          backends.get(Math.floorMod(next.getAndIncrement(), backends.size()));
      try {
        Socket server = new Socket(backend.getAddress(), backend.getPort());
        client.setTcpNoDelay(true);
        server.setTcpNoDelay(true);
        open.add(client);
        open.add(server);
        pipe(client, server);
        pipe(server, client);
      } catch (IOException e) {
        close(client); // the backend refused: the client sees its connection fail
      }
    }
  }

  private void pipe(Socket from, Socket to) {
    Thread thread =
        new Thread(
            () -> {
              byte[] buffer = new byte[64 * 1024];
              try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                  out.write(buffer, 0, n);
                }
              } catch (IOException e) {
                // closed by a peer
              } finally {
                close(from);
                close(to);
              }
            },
            "balancer-pipe");
    thread.setDaemon(true);
    thread.start();
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
  public void close() throws IOException {
    listener.close();
    for (Socket socket : open) {
      close(socket);
    }
  }
}
