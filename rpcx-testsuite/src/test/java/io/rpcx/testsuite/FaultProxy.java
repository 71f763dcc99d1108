package io.rpcx.testsuite;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on 127.0.0.1 that misbehaves on purpose, in both directions: it can slice every
 * write into pieces of 1 to 7 bytes, cut the stream (close both sides) after a number of bytes,
 * reset connections, or freeze (stop forwarding without closing, like a paused process).
 */
public final class FaultProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final int targetPort;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final Random random = new Random(42);
  private volatile boolean slicing;
  private volatile boolean frozen;
  private volatile long cutAfterBytes = Long.MAX_VALUE;
  private final AtomicLong forwarded = new AtomicLong();
  private volatile boolean closed;

  public FaultProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "fault-proxy-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public int port() {
    return listener.getLocalPort();
  }

  /** Splits everything forwarded from now on into pieces of 1 to 7 bytes. */
  public FaultProxy slice(boolean slicing) {
    this.slicing = slicing;
    return this;
  }

  /** Stops forwarding (both ways) without closing anything, or resumes. */
  public FaultProxy freeze(boolean frozen) {
    this.frozen = frozen;
    return this;
  }

  /** Closes the connections once {@code bytes} more bytes have been forwarded. */
  public FaultProxy cutAfter(long bytes) {
    this.cutAfterBytes = forwarded.get() + bytes;
    return this;
  }

  /** Bytes forwarded so far, both ways. */
  public long forwardedBytes() {
    return forwarded.get();
  }

  /** Resets every open connection (RST, not FIN). */
  public void resetAll() {
    for (Socket socket : sockets) {
      try {
        socket.setSoLinger(true, 0);
        socket.close();
      } catch (IOException e) {
        // already gone
      }
    }
  }

  private void accept() {
    while (!closed) {
      try {
        Socket client = listener.accept();
        Socket server;
        try {
          server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        } catch (IOException e) {
          closeQuietly(client); // the target is gone: so is the connection
          continue;
        }
        client.setTcpNoDelay(true);
        server.setTcpNoDelay(true);
        sockets.add(client);
        sockets.add(server);
        if (closed) { // closed while this connection was being set up: it dies with the rest
          closeQuietly(client);
          closeQuietly(server);
          return;
        }
        pump(client, server, "up");
        pump(server, client, "down");
      } catch (IOException e) {
        if (!closed) {
          continue;
        }
        return;
      }
    }
  }

  private void pump(Socket from, Socket to, String direction) {
    Thread thread =
        new Thread(
            () -> {
              byte[] buffer = new byte[16 * 1024];
              try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) != -1) {
                  while (frozen && !closed) {
                    Thread.sleep(5);
                  }
                  int offset = 0;
                  while (offset < read) {
                    int piece = slicing ? Math.min(read - offset, 1 + random.nextInt(7)) : read - offset;
                    long total = forwarded.addAndGet(piece);
                    if (total > cutAfterBytes) {
                      int allowed = (int) Math.max(0, piece - (total - cutAfterBytes));
                      out.write(buffer, offset, allowed);
                      out.flush();
                      closeQuietly(from);
                      closeQuietly(to);
                      return;
                    }
                    out.write(buffer, offset, piece);
                    out.flush();
                    offset += piece;
                  }
                }
              } catch (IOException | InterruptedException e) {
                // connection ended
              } finally {
                closeQuietly(from);
                closeQuietly(to);
              }
            },
            "fault-proxy-" + direction);
    thread.setDaemon(true);
    thread.start();
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    frozen = false;
    listener.close();
    for (Socket socket : sockets) {
      try {
        socket.close();
      } catch (SocketException e) {
        // already closed
      }
    }
  }
}
