package io.rpcx.interop;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * An HTTP/2 client that writes frames byte by byte, as a broken or hostile peer would: the frames
 * are built here (HPACK by Netty's encoder, nothing else), so a test can send what no real client
 * sends. Reads answer frames one at a time.
 */
final class RawHttp2 implements AutoCloseable {
  static final int DATA = 0;
  static final int HEADERS = 1;
  static final int RST_STREAM = 3;
  static final int SETTINGS = 4;
  static final int PING = 6;
  static final int GOAWAY = 7;
  static final int WINDOW_UPDATE = 8;
  static final int END_STREAM = 0x1;
  static final int END_HEADERS = 0x4;

  private static final byte[] PREFACE =
      "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

  /** One frame read. */
  record Frame(int type, int flags, int streamId, byte[] payload) {
    /** A GOAWAY's error code. */
    int goAwayError() {
      return Unpooled.wrappedBuffer(payload).getInt(4);
    }

    /** A RST_STREAM's error code. */
    int resetError() {
      return Unpooled.wrappedBuffer(payload).getInt(0);
    }
  }

  private final Socket socket;
  private final OutputStream out;
  private final DataInputStream in;
  private final DefaultHttp2HeadersEncoder encoder =
      new DefaultHttp2HeadersEncoder(Http2HeadersEncoder.NEVER_SENSITIVE, false);
  private final DefaultHttp2HeadersDecoder decoder = new DefaultHttp2HeadersDecoder(false, 1 << 20);
  private int nextStream = 1;

  /** Connects and sends the connection preface and an empty SETTINGS. */
  RawHttp2(int port) throws IOException {
    socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(10_000);
    out = socket.getOutputStream();
    in = new DataInputStream(socket.getInputStream());
    out.write(PREFACE);
    frame(SETTINGS, 0, 0, new byte[0]);
  }

  /** A new client stream id. */
  int newStream() {
    int id = nextStream;
    nextStream += 2;
    return id;
  }

  /** The request headers of a gRPC call of {@code path}. */
  static Http2Headers request(String path) {
    return new DefaultHttp2Headers()
        .method("POST")
        .scheme("http")
        .path(path)
        .authority("127.0.0.1")
        .set("content-type", "application/grpc")
        .set("te", "trailers");
  }

  /** Writes one frame. */
  void frame(int type, int flags, int streamId, byte[] payload) throws IOException {
    byte[] header = {
      (byte) (payload.length >>> 16), (byte) (payload.length >>> 8), (byte) payload.length,
      (byte) type, (byte) flags,
      (byte) (streamId >>> 24), (byte) (streamId >>> 16), (byte) (streamId >>> 8), (byte) streamId
    };
    out.write(header);
    out.write(payload);
    out.flush();
  }

  /** Writes HEADERS of {@code headers}, HPACK-encoded, as one frame. */
  void headers(int streamId, Http2Headers headers, boolean endStream) throws IOException {
    frame(HEADERS, END_HEADERS | (endStream ? END_STREAM : 0), streamId, hpack(streamId, headers));
  }

  /** {@code headers} HPACK-encoded with this connection's encoder (its dynamic table moves). */
  byte[] hpack(int streamId, Http2Headers headers) {
    ByteBuf block = Unpooled.buffer();
    try {
      encoder.encodeHeaders(streamId, headers, block);
    } catch (Http2Exception e) {
      throw new IllegalStateException(e);
    }
    byte[] bytes = new byte[block.readableBytes()];
    block.readBytes(bytes);
    return bytes;
  }

  /** Writes one gRPC message (prefix and {@code message}) as a DATA frame. */
  void message(int streamId, byte[] message, boolean endStream) throws IOException {
    byte[] data = new byte[5 + message.length];
    data[1] = (byte) (message.length >>> 24);
    data[2] = (byte) (message.length >>> 16);
    data[3] = (byte) (message.length >>> 8);
    data[4] = (byte) message.length;
    System.arraycopy(message, 0, data, 5, message.length);
    frame(DATA, endStream ? END_STREAM : 0, streamId, data);
  }

  /** The next frame, acknowledging SETTINGS and PING on the way; null when the server closed. */
  Frame read() throws IOException {
    while (true) {
      int length;
      try {
        length = (in.readUnsignedByte() << 16) | (in.readUnsignedByte() << 8) | in.readUnsignedByte();
      } catch (EOFException | SocketException e) {
        return null;
      }
      int type = in.readUnsignedByte();
      int flags = in.readUnsignedByte();
      int streamId = in.readInt() & 0x7fffffff;
      byte[] payload = new byte[length];
      in.readFully(payload);
      if (type == SETTINGS && (flags & 1) == 0) {
        acknowledge(SETTINGS, new byte[0]);
        continue;
      }
      if (type == PING && (flags & 1) == 0) {
        acknowledge(PING, payload);
        continue;
      }
      return new Frame(type, flags, streamId, payload);
    }
  }

  private void acknowledge(int type, byte[] payload) {
    try {
      frame(type, 1, 0, payload);
    } catch (IOException e) {
      // the server closed its side: what it sent before is still read
    }
  }

  /** The next HEADERS frame of {@code streamId}, decoded; fails on GOAWAY or a closed connection. */
  Http2Headers awaitHeaders(int streamId) throws IOException {
    while (true) {
      Frame frame = read();
      if (frame == null) {
        throw new EOFException("the server closed the connection");
      }
      if (frame.type == GOAWAY) {
        throw new IOException("GOAWAY, error " + frame.goAwayError());
      }
      if (frame.type == HEADERS) {
        Http2Headers headers;
        try {
          headers = decoder.decodeHeaders(frame.streamId, Unpooled.wrappedBuffer(frame.payload));
        } catch (Http2Exception e) {
          throw new IOException(e);
        }
        if (frame.streamId == streamId) {
          return headers;
        }
      }
    }
  }

  /** The next GOAWAY, skipping other frames; null if the connection closed without one. */
  Frame awaitGoAway() throws IOException {
    try {
      while (true) {
        Frame frame = read();
        if (frame == null || frame.type == GOAWAY) {
          return frame;
        }
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError("neither GOAWAY nor a close within 10 s", e);
    }
  }

  /** Whether the server closed the connection (reads end), within the socket's timeout. */
  boolean awaitClosed() throws IOException {
    try {
      while (read() != null) {
        // skip what is still in flight
      }
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
