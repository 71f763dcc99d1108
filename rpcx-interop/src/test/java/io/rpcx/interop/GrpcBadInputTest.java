package io.rpcx.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import interop.InteropGrpc;
import interop.InteropOuterClass.EchoRequest;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.rpcx.internal.testing.LogCapture;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bad input on the gRPC side, sent as raw HTTP/2 bytes: each gets the answer gRPC's own servers
 * give (a status on the stream, or GOAWAY for a peer that breaks HTTP/2), and a well-behaved
 * grpc-java client on another connection goes on being served throughout.
 */
@Timeout(60)
class GrpcBadInputTest {
  private static final byte[] ECHO_HELLO = EchoRequest.newBuilder().setText("hello").build().toByteArray();
  private static LogCapture log;
  private static GrpcPeer peer;

  @BeforeAll
  static void start() {
    log = LogCapture.of("io.rpcx.server"); // every refusal below is logged, and asserted
    peer =
        GrpcPeer.start(InteropServer.builder(0).maxFrameSize(64 * 1024).maxMetadataBytes(4096));
  }

  @AfterAll
  static void stop() {
    peer.close();
    log.close();
  }

  /** The well-behaved client on its own connection, after each abuse. */
  private static void othersAreStillServed() {
    assertEquals(
        "fine",
        InteropGrpc.newBlockingStub(peer.channel)
            .withDeadlineAfter(10, TimeUnit.SECONDS)
            .echo(EchoRequest.newBuilder().setText("fine").build())
            .getValue());
  }

  private static String status(Http2Headers headers) {
    CharSequence status = headers.get("grpc-status");
    return status == null ? null : status.toString();
  }

  @Test
  void anUnknownPathIsUnimplemented() throws Exception {
    try (RawHttp2 raw = new RawHttp2(peer.server.port())) {
      int stream = raw.newStream();
      raw.headers(stream, RawHttp2.request("/interop.Interop/noSuchMethod"), false);
      raw.message(stream, ECHO_HELLO, true);
      Http2Headers answer = raw.awaitHeaders(stream);
      assertEquals("200", answer.status().toString());
      assertEquals("12", status(answer));
      assertEquals("Method not found: interop.Interop/noSuchMethod", answer.get("grpc-message").toString());

      // the same connection goes on: a good call on it
      int good = raw.newStream();
      raw.headers(good, RawHttp2.request("/interop.Interop/echo"), false);
      raw.message(good, ECHO_HELLO, true);
      assertEquals("200", raw.awaitHeaders(good).status().toString());
      assertEquals("0", status(raw.awaitHeaders(good)));
    }
    othersAreStillServed();
  }

  @Test
  void aWrongContentTypeIs415AsTheGrpcSpecSays() throws Exception {
    try (RawHttp2 raw = new RawHttp2(peer.server.port())) {
      int stream = raw.newStream();
      raw.headers(stream, RawHttp2.request("/interop.Interop/echo").set("content-type", "application/json"), false);
      raw.message(stream, ECHO_HELLO, true);
      Http2Headers answer = raw.awaitHeaders(stream);
      assertEquals("415", answer.status().toString());
      assertEquals("13", status(answer));
    }
    othersAreStillServed();
  }

  @Test
  void aMessageOverTheLimitIsResourceExhaustedBeforeItsBytesAreKept() throws Exception {
    try (RawHttp2 raw = new RawHttp2(peer.server.port())) {
      int stream = raw.newStream();
      raw.headers(stream, RawHttp2.request("/interop.Interop/echo"), false);
      // The prefix alone claims 1 GiB: refused at once, with nothing of it buffered.
      raw.frame(RawHttp2.DATA, 0, stream, new byte[] {0, 0x40, 0, 0, 0});
      Http2Headers answer = raw.awaitHeaders(stream);
      assertEquals("8", status(answer));
      assertTrue(
          answer.get("grpc-message").toString().contains("over the limit of 65536 bytes"),
          answer.get("grpc-message").toString());
    }
    othersAreStillServed();
  }

  @Test
  void aMalformedRequestMessageIsInvalidArgumentNamingTheMethod() throws Exception {
    try (RawHttp2 raw = new RawHttp2(peer.server.port())) {
      int stream = raw.newStream();
      raw.headers(stream, RawHttp2.request("/interop.Interop/echo"), false);
      raw.message(stream, new byte[] {0x0a, 0x7f, 'x'}, true); // a string field of 127 bytes, 1 sent
      Http2Headers answer = raw.awaitHeaders(stream);
      assertEquals("200", answer.status().toString());
      Http2Headers trailers = answer.contains("grpc-status") ? answer : raw.awaitHeaders(stream);
      assertEquals("3", status(trailers));
      assertTrue(trailers.get("grpc-message").toString().contains("interop/echo"), trailers.toString());
    }
    othersAreStillServed();
  }

  @Test
  void aCompressedMessageWithoutAnEncodingAndAnUnknownEncodingAreRefused() throws Exception {
    try (RawHttp2 raw = new RawHttp2(peer.server.port())) {
      int stream = raw.newStream();
      raw.headers(stream, RawHttp2.request("/interop.Interop/echo"), false);
      byte[] data = new byte[5 + ECHO_HELLO.length];
      data[0] = 1; // compressed
      data[4] = (byte) ECHO_HELLO.length;
      System.arraycopy(ECHO_HELLO, 0, data, 5, ECHO_HELLO.length);
      raw.frame(RawHttp2.DATA, RawHttp2.END_STREAM, stream, data);
      assertEquals("13", status(raw.awaitHeaders(stream)));

      int snappy = raw.newStream();
      raw.headers(snappy, RawHttp2.request("/interop.Interop/echo").set("grpc-encoding", "snappy"), true);
      Http2Headers answer = raw.awaitHeaders(snappy);
      assertEquals("12", status(answer));
      assertTrue(answer.get("grpc-message").toString().contains("snappy"));
    }
    othersAreStillServed();
  }

  @Test
  void aMalformedFrameClosesOnlyItsConnectionWithGoAway() throws Exception {
    try (RawHttp2 raw = new RawHttp2(peer.server.port())) {
      raw.frame(RawHttp2.SETTINGS, 0, 0, new byte[5]); // SETTINGS must be a multiple of 6 bytes
      RawHttp2.Frame goAway = raw.awaitGoAway();
      assertNotNull(goAway, "GOAWAY before the close");
      assertEquals(Http2Error.FRAME_SIZE_ERROR.code(), goAway.goAwayError());
      assertTrue(raw.awaitClosed());
    }
    assertEquals(1, log.warningsContaining("Frame length 5 invalid").size(), "logged once, naming the fault");
    othersAreStillServed();
  }

  @Test
  void anHpackBombIsRefusedWith431AndTheConnectionGoesOn() throws Exception {
    try (RawHttp2 raw = new RawHttp2(peer.server.port())) {
      // One 4 KB header enters HPACK's dynamic table, then each 1-byte reference to it stands
      // for 4 KB more: a few KB on the wire that would decode to 4 MB. The codec stops keeping
      // headers past the limit (the metadata limit and room for gRPC's own) and answers 431.
      int stream = raw.newStream();
      Http2Headers headers = RawHttp2.request("/interop.Interop/echo");
      String big = "x".repeat(4000);
      for (int i = 0; i < 1000; i++) {
        headers.add("bomb", big);
      }
      raw.headers(stream, headers, true);
      assertEquals("431", raw.awaitHeaders(stream).status().toString());

      int good = raw.newStream();
      raw.headers(good, RawHttp2.request("/interop.Interop/echo"), false);
      raw.message(good, ECHO_HELLO, true);
      assertEquals("200", raw.awaitHeaders(good).status().toString());
      assertEquals("0", status(raw.awaitHeaders(good)));
    }
    othersAreStillServed();
  }

  @Test
  void aRapidResetFloodClosesItsConnection() throws Exception {
    try (RawHttp2 raw = new RawHttp2(peer.server.port())) {
      byte[] cancel = {0, 0, 0, (byte) Http2Error.CANCEL.code()};
      Http2Headers request = RawHttp2.request("/interop.Interop/sleep");
      RawHttp2.Frame goAway;
      try {
        for (int i = 0; i < 1000; i++) {
          int stream = raw.newStream();
          raw.headers(stream, request, false);
          raw.frame(RawHttp2.RST_STREAM, 0, stream, cancel);
        }
      } catch (IOException e) {
        // the server closed the connection while we were still flooding
      }
      goAway = raw.awaitGoAway();
      assertNotNull(goAway, "GOAWAY before the close");
      assertEquals(Http2Error.ENHANCE_YOUR_CALM.code(), goAway.goAwayError());
    }
    assertEquals(1, log.warningsContaining("Maximum number of RST frames reached").size());
    othersAreStillServed();
  }
}
