package io.rpcx.testsuite;

import io.rpcx.core.internal.protocol.Preface;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * A bare socket speaking (or deliberately breaking) the RPCX framing, for tests of what the server
 * does with input no RPCX client would send. Every read has a timeout.
 */
final class RawConnection implements AutoCloseable {
  private final Socket socket;
  private final OutputStream out;
  private final DataInputStream in;

  RawConnection(int port) throws IOException {
    socket = new Socket();
    socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
    socket.setSoTimeout(5_000);
    socket.setTcpNoDelay(true);
    out = socket.getOutputStream();
    in = new DataInputStream(socket.getInputStream());
  }

  /** Sends the client preface and reads the server's. */
  RawConnection handshake() throws IOException {
    send(Preface.bytes());
    readPreface();
    return this;
  }

  /** Reads the server's preface. */
  byte[] readPreface() throws IOException {
    byte[] preface = new byte[Preface.LENGTH];
    in.readFully(preface);
    return preface;
  }

  /** This end's address as the server sees it, e.g. {@code /127.0.0.1:51234}. */
  String localAddress() {
    return "/127.0.0.1:" + socket.getLocalPort();
  }

  void send(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  void sendFrame(byte type, byte[] payload) throws IOException {
    byte[] frame = new byte[6 + payload.length];
    int length = payload.length + 2;
    frame[0] = (byte) (length >>> 24);
    frame[1] = (byte) (length >>> 16);
    frame[2] = (byte) (length >>> 8);
    frame[3] = (byte) length;
    frame[4] = type;
    System.arraycopy(payload, 0, frame, 6, payload.length);
    send(frame);
  }

  /** A received frame. */
  static final class Frame {
    final byte type;
    final byte[] payload;

    Frame(byte type, byte[] payload) {
      this.type = type;
      this.payload = payload;
    }
  }

  Frame readFrame() throws IOException {
    int length = in.readInt();
    byte type = in.readByte();
    in.readByte();
    byte[] payload = new byte[length - 2];
    in.readFully(payload);
    return new Frame(type, payload);
  }

  /** Whether the server closes the connection within the socket timeout (reading what remains). */
  boolean closedByServer() throws IOException {
    try {
      while (in.read() != -1) {
        // drain: a GOAWAY may precede the close
      }
      return true;
    } catch (EOFException e) {
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true; // reset
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
