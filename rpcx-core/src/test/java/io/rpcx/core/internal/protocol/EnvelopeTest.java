package io.rpcx.core.internal.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.StringValue;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.DecodeContext;
import io.rpcx.core.internal.codec.ByteArrayProtoWriter;
import io.rpcx.core.internal.codec.StreamCodec;
import io.rpcx.core.internal.call.RequestEnvelope;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.codec.Values;
import io.rpcx.core.internal.model.StandardCodecs;
import io.rpcx.core.internal.protocol.proto.Argument;
import io.rpcx.core.internal.protocol.proto.Error;
import io.rpcx.core.internal.protocol.proto.RPCXReply;
import io.rpcx.core.internal.protocol.proto.RPCXRequest;
import io.rpcx.core.internal.protocol.proto.StackFrame;
import io.rpcx.core.internal.protocol.proto.StreamCancel;
import io.rpcx.core.internal.protocol.proto.StreamCredit;
import io.rpcx.core.internal.protocol.proto.StreamEnd;
import io.rpcx.core.internal.protocol.proto.StreamMessage;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The hand-written envelope encoders produce exactly what rpcx.proto describes: protoc's generated
 * classes read what they write, and they read what the generated classes write.
 */
@SuppressWarnings({"rawtypes"}) // arrays of codecs of generic types
class EnvelopeTest {

  @SuppressWarnings("unchecked")
  private static final ValueCodec<Object> STRING =
      (ValueCodec<Object>) StandardCodecs.registry().codecFor(String.class);

  @SuppressWarnings("unchecked")
  private static final ValueCodec<Object> INT =
      (ValueCodec<Object>) StandardCodecs.registry().codecFor(int.class);

  @Test
  void aWrittenRequestIsAValidRpcxRequest() throws Exception {
    byte[] bytes = writeRequest(77, new Object[] {"hello", 42}, 1500, Map.of("authorization", "x"));
    RPCXRequest request = RPCXRequest.parseFrom(bytes);
    assertEquals(77, request.getRequestId());
    assertEquals("orders", request.getService());
    assertEquals("loadOrder", request.getMethod());
    assertEquals(1500, request.getTimeoutMillis());
    assertEquals(Map.of("authorization", "x"), request.getMetadataMap());
    assertEquals(2, request.getArgumentsCount());
    assertEquals("string", request.getArguments(0).getType());
    assertEquals("hello", StringValue.parseFrom(request.getArguments(0).getValue()).getValue());
    assertEquals("int32", request.getArguments(1).getType());
  }

  @Test
  void aNullArgumentHasNoValue() throws Exception {
    RPCXRequest request = RPCXRequest.parseFrom(writeRequest(1, new Object[] {null, 0}, 0, Map.of()));
    assertTrue(request.getArguments(0).getValue().isEmpty());
    assertEquals(0, request.getTimeoutMillis());
  }

  @Test
  void theEnvelopeOfAGeneratedRequestIsReadWithoutDecodingArguments() throws Exception {
    RPCXRequest request =
        RPCXRequest.newBuilder()
            .setRequestId(9)
            .setService("echo")
            .setMethod("shout")
            .addArguments(
                Argument.newBuilder()
                    .setType("string")
                    .setValue(StringValue.of("abc").toByteString()))
            .setTimeoutMillis(250)
            .putMetadata("k", "v")
            .build();
    ByteBufferPayload payload = ByteBufferPayload.of(request.toByteArray());
    RequestEnvelope envelope = RequestEnvelope.parse(payload, 1024);
    assertEquals(9, envelope.requestId());
    assertEquals("echo", envelope.service());
    assertEquals("shout", envelope.method());
    assertEquals(250, envelope.timeoutMillis());
    assertEquals(Map.of("k", "v"), envelope.metadata());
    assertEquals(1, envelope.argumentCount());
    assertTrue(envelope.typeEquals(0, "string".getBytes(StandardCharsets.UTF_8)));
    assertFalse(envelope.typeEquals(0, "int32".getBytes(StandardCharsets.UTF_8)));
    DecodeContext context = DecodeContext.withDefaults();
    assertEquals("abc", envelope.readValue(0, false, in -> Values.read(STRING, in, context)));
  }

  @Test
  void aRequestIdOfZeroMayBeLeftOut() throws Exception {
    RPCXRequest request = RPCXRequest.newBuilder().setService("s").setMethod("m").build();
    assertEquals(0, RequestEnvelope.parse(ByteBufferPayload.of(request.toByteArray()), 1024).requestId());
  }

  @Test
  void tooMuchMetadataIsRefusedNamingTheRequest() {
    RPCXRequest request =
        RPCXRequest.newBuilder().setRequestId(5).putMetadata("token", "x".repeat(100)).build();
    ProtocolException e =
        assertThrows(
            ProtocolException.class,
            () -> RequestEnvelope.parse(ByteBufferPayload.of(request.toByteArray()), 64));
    assertEquals(5, e.requestId());
    assertEquals(StatusCode.RESOURCE_EXHAUSTED, e.status());
    assertEquals("request metadata exceeds 64 bytes", e.getMessage());
  }

  @Test
  void garbageIsNotARequest() {
    byte[] garbage = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};
    ProtocolException e =
        assertThrows(ProtocolException.class, () -> RequestEnvelope.parse(ByteBufferPayload.of(garbage), 1024));
    assertEquals(ProtocolException.NO_REQUEST_ID, e.requestId());
    assertEquals(StatusCode.BAD_REQUEST, e.status());
  }

  @Test
  void aTruncatedRequestKeepsItsIdSoTheServerCanAnswerIt() throws Exception {
    byte[] full = writeRequest(33, new Object[] {"hello", 1}, 0, Map.of());
    byte[] truncated = java.util.Arrays.copyOf(full, full.length - 3);
    ProtocolException e =
        assertThrows(ProtocolException.class, () -> RequestEnvelope.parse(ByteBufferPayload.of(truncated), 1024));
    assertEquals(33, e.requestId());
  }

  @Test
  void valueAndErrorRepliesAreValidRpcxReplies() throws Exception {
    ByteArrayProtoWriter out = new ByteArrayProtoWriter();
    ReplyWriter.writeValue(out, 12, STRING, "result", 0);
    RPCXReply reply = RPCXReply.parseFrom(out.toByteArray());
    assertEquals(12, reply.getRequestId());
    assertEquals("result", StringValue.parseFrom(reply.getValue()).getValue());

    ByteArrayProtoWriter errorOut = new ByteArrayProtoWriter();
    ReplyWriter.writeError(errorOut, 13, StatusCode.NOT_FOUND, "no such method", null);
    RPCXReply parsed = RPCXReply.parseFrom(errorOut.toByteArray());
    assertEquals(io.rpcx.core.internal.protocol.proto.StatusCode.NOT_FOUND, parsed.getError().getCode());
    assertEquals("no such method", parsed.getError().getMessage());
  }

  @Test
  void aRemoteFailureCarriesTheFieldsOfADeclaredExceptionAsAValue() throws Exception {
    ByteArrayProtoWriter reply = new ByteArrayProtoWriter();
    ReplyWriter.writeError(
        reply, 14, StatusCode.REMOTE_FAILURE, "out of stock",
        ThrownException.withFields("shop.OutOfStockException", STRING, "A-1", null));
    Error error = RPCXReply.parseFrom(reply.toByteArray()).getError();
    assertEquals("shop.OutOfStockException", error.getExceptionClass());
    assertEquals("A-1", StringValue.parseFrom(error.getExceptionValue()).getValue());
    ReplyEnvelope envelope = ReplyEnvelope.parse(ByteBufferPayload.of(reply.toByteArray()));
    assertEquals("shop.OutOfStockException", envelope.exceptionClass());
    assertEquals(error.getExceptionValue(), ByteString.copyFrom(envelope.exceptionValue()));

    ByteArrayProtoWriter end = new ByteArrayProtoWriter();
    StreamFrames.writeEnd(
        end, 15, StatusCode.REMOTE_FAILURE, "out of stock",
        ThrownException.withFields("shop.OutOfStockException", STRING, "A-1", null));
    StreamEnd parsed = StreamEnd.parseFrom(end.toByteArray());
    assertEquals(error.getExceptionValue(), parsed.getError().getExceptionValue());
    StreamFrames frames = StreamFrames.parseEnd(ByteBufferPayload.of(end.toByteArray()));
    assertEquals(error.getExceptionValue(), ByteString.copyFrom(frames.exceptionValue()));

    // From a peer that predates it (or for an undeclared exception): absent.
    ByteArrayProtoWriter old = new ByteArrayProtoWriter();
    ReplyWriter.writeError(
        old, 16, StatusCode.REMOTE_FAILURE, "boom", ThrownException.named("java.lang.Error"));
    assertTrue(RPCXReply.parseFrom(old.toByteArray()).getError().getExceptionValue().isEmpty());
    assertNull(ReplyEnvelope.parse(ByteBufferPayload.of(old.toByteArray())).exceptionValue());
  }

  /** Frames of every shape: file and line known; no file, line unknown; native; line 0; empty. */
  private static final StackTraceElement[] FRAMES = {
    new StackTraceElement("shop.ShopImpl", "buy", "ShopImpl.java", 42),
    new StackTraceElement("jdk.proxy2.$Proxy12", "invoke", null, -1),
    new StackTraceElement("java.lang.Thread", "sleep0", "Thread.java", -2),
    new StackTraceElement("shop.Generated", "run", "", 0),
    new StackTraceElement("", "", null, Integer.MIN_VALUE),
  };

  @Test
  void aStackTraceTravelsAsStackFramesWithUnknownFieldsApart() throws Exception {
    ThrownException thrown =
        ThrownException.withFields("shop.OutOfStockException", STRING, "A-1", null)
            .withStackTrace(FRAMES);
    ByteArrayProtoWriter reply = new ByteArrayProtoWriter();
    ReplyWriter.writeError(reply, 14, StatusCode.REMOTE_FAILURE, "out of stock", thrown);
    Error error = RPCXReply.parseFrom(reply.toByteArray()).getError();
    assertEquals(
        List.of(
            StackFrame.newBuilder()
                .setClassName("shop.ShopImpl")
                .setMethodName("buy")
                .setFileName("ShopImpl.java")
                .setLineNumber(42)
                .build(),
            StackFrame.newBuilder()
                .setClassName("jdk.proxy2.$Proxy12")
                .setMethodName("invoke")
                .setLineNumber(-1)
                .build(),
            StackFrame.newBuilder()
                .setClassName("java.lang.Thread")
                .setMethodName("sleep0")
                .setFileName("Thread.java")
                .setLineNumber(-2)
                .build(),
            StackFrame.newBuilder().setClassName("shop.Generated").setMethodName("run").build(),
            StackFrame.newBuilder().setLineNumber(Integer.MIN_VALUE).build()),
        error.getStackTraceList());
    assertEquals("A-1", StringValue.parseFrom(error.getExceptionValue()).getValue());
    // Byte for byte what protoc writes; line -1 a sint32 of one byte (20 01), not ten.
    ByteArrayProtoWriter proxyFrame = new ByteArrayProtoWriter();
    ReplyWriter.writeError(
        proxyFrame, 1, StatusCode.REMOTE_FAILURE, "",
        ThrownException.named("").withStackTrace(new StackTraceElement[] {FRAMES[1]}));
    RPCXReply expected =
        RPCXReply.newBuilder()
            .setRequestId(1)
            .setError(
                Error.newBuilder()
                    .setCodeValue(StatusCode.REMOTE_FAILURE.number())
                    .addStackTrace(error.getStackTrace(1)))
            .build();
    assertEquals(hex(expected.toByteArray()), hex(proxyFrame.toByteArray()));
    assertTrue(hex(proxyFrame.toByteArray()).endsWith("69 6e 76 6f 6b 65 20 01"));

    StackTraceElement[] read =
        ReplyEnvelope.parse(ByteBufferPayload.of(reply.toByteArray())).stackTrace();
    assertArrayEquals(FRAMES, read);
    assertNull(read[1].getFileName());
    assertEquals("", read[3].getFileName());

    ByteArrayProtoWriter end = new ByteArrayProtoWriter();
    StreamFrames.writeEnd(end, 15, StatusCode.REMOTE_FAILURE, "out of stock", thrown);
    assertEquals(error, StreamEnd.parseFrom(end.toByteArray()).getError());
    assertArrayEquals(
        FRAMES, StreamFrames.parseEnd(ByteBufferPayload.of(end.toByteArray())).stackTrace());

    // Unless asked for, none: absent, not empty.
    ByteArrayProtoWriter without = new ByteArrayProtoWriter();
    ReplyWriter.writeError(
        without, 16, StatusCode.REMOTE_FAILURE, "boom", ThrownException.named("java.lang.Error"));
    assertEquals(0, RPCXReply.parseFrom(without.toByteArray()).getError().getStackTraceCount());
    assertNull(ReplyEnvelope.parse(ByteBufferPayload.of(without.toByteArray())).stackTrace());
  }

  @Test
  void aStackTraceIsSentAndKeptToItsInnermost256Frames() throws Exception {
    StackTraceElement[] deep = new StackTraceElement[1024]; // a StackOverflowError's
    for (int i = 0; i < deep.length; i++) {
      deep[i] = new StackTraceElement("shop.Recursive", "depth" + i, "Recursive.java", i + 1);
    }
    ByteArrayProtoWriter sent = new ByteArrayProtoWriter();
    ReplyWriter.writeError(
        sent, 1, StatusCode.REMOTE_FAILURE, "",
        ThrownException.named("java.lang.StackOverflowError").withStackTrace(deep));
    List<StackFrame> written =
        RPCXReply.parseFrom(sent.toByteArray()).getError().getStackTraceList();
    assertEquals(256, written.size());
    assertEquals("depth0", written.get(0).getMethodName());
    assertEquals("depth255", written.get(255).getMethodName());

    // A peer that sends more, and a million empty frames at that: the first 256 are kept, the rest
    // skipped; the error is read, with what follows the frames.
    Error.Builder hostile = Error.newBuilder().setCodeValue(StatusCode.REMOTE_FAILURE.number());
    for (int i = 0; i < 1_000_000; i++) {
      hostile.addStackTrace(
          i < 300
              ? StackFrame.newBuilder().setMethodName("m" + i).build()
              : StackFrame.getDefaultInstance());
    }
    hostile.setExceptionClass("shop.Hostile");
    byte[] bytes = RPCXReply.newBuilder().setRequestId(2).setError(hostile).build().toByteArray();
    ReplyEnvelope read = ReplyEnvelope.parse(ByteBufferPayload.of(bytes));
    assertEquals("shop.Hostile", read.exceptionClass());
    assertEquals(256, read.stackTrace().length);
    assertEquals("m255", read.stackTrace()[255].getMethodName());
    StreamFrames end =
        StreamFrames.parseEnd(
            ByteBufferPayload.of(
                StreamEnd.newBuilder().setStreamId(3).setError(hostile).build().toByteArray()));
    assertEquals(256, end.stackTrace().length);
  }

  @Test
  void theCancelOfAUnaryCallIsTheBytesOfProtocolSection18() throws Exception {
    ByteArrayProtoWriter cancel = new ByteArrayProtoWriter();
    StreamFrames.writeCancel(cancel, 7, "its timeout passed on the client");
    assertEquals(
        "08 07 12 20 69 74 73 20 74 69 6d 65 6f 75 74 20 70 61 73 73 65 64 20 6f 6e 20 74 68 65"
            + " 20 63 6c 69 65 6e 74",
        hex(cancel.toByteArray()));
    assertEquals(
        StreamCancel.newBuilder().setStreamId(7).setMessage("its timeout passed on the client").build(),
        StreamCancel.parseFrom(cancel.toByteArray()));
  }

  @Test
  void generatedRepliesAreRead() throws Exception {
    RPCXReply value =
        RPCXReply.newBuilder().setRequestId(3).setValue(StringValue.of("v").toByteString()).build();
    ByteBufferPayload payload = ByteBufferPayload.of(value.toByteArray());
    ReplyEnvelope envelope = ReplyEnvelope.parse(payload);
    assertFalse(envelope.isError());
    DecodeContext context = DecodeContext.withDefaults();
    assertEquals("v", envelope.readValue(payload, false, in -> Values.read(STRING, in, context)));

    RPCXReply voidReply = RPCXReply.newBuilder().setRequestId(4).build();
    ReplyEnvelope empty = ReplyEnvelope.parse(ByteBufferPayload.of(voidReply.toByteArray()));
    assertFalse(empty.isError());
    assertNull(
        empty.readValue(
            ByteBufferPayload.of(voidReply.toByteArray()),
            false,
            in -> {
              throw new AssertionError("an absent value is not read");
            }));

    RPCXReply failure =
        RPCXReply.newBuilder()
            .setRequestId(5)
            .setError(
                Error.newBuilder()
                    .setCodeValue(StatusCode.REMOTE_FAILURE.number())
                    .setMessage("boom")
                    .setExceptionClass("java.lang.IllegalStateException"))
            .build();
    ReplyEnvelope error = ReplyEnvelope.parse(ByteBufferPayload.of(failure.toByteArray()));
    assertTrue(error.isError());
    assertEquals(StatusCode.REMOTE_FAILURE, error.errorCode());
    assertEquals("boom", error.errorMessage());
    assertEquals("java.lang.IllegalStateException", error.exceptionClass());
  }

  @Test
  void anErrorCarryingStatusOkOrAnUnknownCodeIsInternal() throws Exception {
    RPCXReply ok = RPCXReply.newBuilder().setRequestId(1).setError(Error.newBuilder()).build();
    assertEquals(StatusCode.INTERNAL, ReplyEnvelope.parse(ByteBufferPayload.of(ok.toByteArray())).errorCode());
    RPCXReply unknown =
        RPCXReply.newBuilder().setRequestId(1).setError(Error.newBuilder().setCodeValue(999)).build();
    assertEquals(StatusCode.INTERNAL, ReplyEnvelope.parse(ByteBufferPayload.of(unknown.toByteArray())).errorCode());
  }

  @Test
  void theValueBytesAreReadInPlace() throws Exception {
    byte[] big = new byte[100_000];
    RPCXReply reply =
        RPCXReply.newBuilder()
            .setRequestId(1)
            .setValue(com.google.protobuf.BytesValue.of(ByteString.copyFrom(big)).toByteString())
            .build();
    ByteBuffer memory = ByteBuffer.allocateDirect(reply.getSerializedSize());
    memory.put(reply.toByteArray()).flip();
    ByteBufferPayload direct = new ByteBufferPayload(memory);
    ReplyEnvelope envelope = ReplyEnvelope.parse(direct);
    @SuppressWarnings("unchecked")
    ValueCodec<Object> bytes = (ValueCodec<Object>) StandardCodecs.registry().codecFor(byte[].class);
    byte[] read =
        envelope.readValue(
            direct, true, in -> (byte[]) Values.read(bytes, in, DecodeContext.withDefaults()));
    assertEquals(big.length, read.length);
  }

  /** The byte-by-byte example of docs/PROTOCOL.md, section 3. */
  @Test
  void theDocumentedExampleRequestIsExactlyWhatIsWritten() throws Exception {
    byte[] names = RequestWriter.nameFields("echo", "echo");
    byte[][] types = {RequestWriter.typeField("string")};
    @SuppressWarnings("unchecked")
    ValueCodec<Object>[] codecs = new ValueCodec[] {STRING};
    ByteArrayProtoWriter out = new ByteArrayProtoWriter();
    RequestWriter.write(out, 1, names, types, codecs, new Object[] {"hi"}, 5000, Map.of(), null);
    byte[] bytes = out.toByteArray();
    assertEquals(
        "08 01 12 04 65 63 68 6f 1a 04 65 63 68 6f 22 0e 0a 06 73 74 72 69 6e 67 12 04 0a 02 68"
            + " 69 28 88 27",
        hex(bytes));
    ByteArrayProtoWriter reply = new ByteArrayProtoWriter();
    ReplyWriter.writeValue(reply, 1, STRING, "hi", 0);
    assertEquals("08 01 12 04 0a 02 68 69", hex(reply.toByteArray()));
  }

  @Test
  void streamFramesAreExactlyTheMessagesOfRpcxProto() throws Exception {
    ByteArrayProtoWriter credit = new ByteArrayProtoWriter();
    StreamFrames.writeCredit(credit, 300, 128);
    assertEquals(
        StreamCredit.newBuilder().setStreamId(300).setMessages(128).build(),
        StreamCredit.parseFrom(credit.toByteArray()));
    StreamFrames parsedCredit =
        StreamFrames.parseCredit(
            ByteBufferPayload.of(
                StreamCredit.newBuilder().setStreamId(7).setMessages(-1).build().toByteArray()));
    assertEquals(7, parsedCredit.streamId());
    assertEquals(-1, parsedCredit.messages()); // unsigned: 2^32 - 1

    ByteArrayProtoWriter cancel = new ByteArrayProtoWriter();
    StreamFrames.writeCancel(cancel, 5, "enough");
    assertEquals(
        StreamCancel.newBuilder().setStreamId(5).setMessage("enough").build(),
        StreamCancel.parseFrom(cancel.toByteArray()));
    StreamFrames parsedCancel =
        StreamFrames.parseCancel(
            ByteBufferPayload.of(
                StreamCancel.newBuilder().setStreamId(5).setMessage("bye").build().toByteArray()));
    assertEquals(5, parsedCancel.streamId());
    assertEquals("bye", parsedCancel.message());

    ByteArrayProtoWriter end = new ByteArrayProtoWriter();
    StreamFrames.writeEnd(end, 9, null, "", null);
    assertEquals(StreamEnd.newBuilder().setStreamId(9).build(), StreamEnd.parseFrom(end.toByteArray()));
    StreamFrames parsedEnd = StreamFrames.parseEnd(ByteBufferPayload.of(end.toByteArray()));
    assertFalse(parsedEnd.isError());
    assertEquals(9, parsedEnd.streamId());

    ByteArrayProtoWriter failed = new ByteArrayProtoWriter();
    StreamFrames.writeEnd(
        failed, 9, StatusCode.REMOTE_FAILURE, "boom", ThrownException.named("java.io.IOException"));
    StreamEnd expected =
        StreamEnd.newBuilder()
            .setStreamId(9)
            .setError(
                Error.newBuilder()
                    .setCodeValue(StatusCode.REMOTE_FAILURE.number())
                    .setMessage("boom")
                    .setExceptionClass("java.io.IOException"))
            .build();
    assertEquals(expected, StreamEnd.parseFrom(failed.toByteArray()));
    assertEquals(hex(expected.toByteArray()), hex(failed.toByteArray()));
    StreamFrames parsedFailure =
        StreamFrames.parseEnd(ByteBufferPayload.of(expected.toByteArray()));
    assertEquals(StatusCode.REMOTE_FAILURE, parsedFailure.errorCode());
    assertEquals("boom", parsedFailure.message());
    assertEquals("java.io.IOException", parsedFailure.exceptionClass());

    StreamEnd ok = StreamEnd.newBuilder().setStreamId(1).setError(Error.newBuilder()).build();
    StreamFrames okError = StreamFrames.parseEnd(ByteBufferPayload.of(ok.toByteArray()));
    assertEquals(StatusCode.INTERNAL, okError.errorCode());

    // A STREAM_MESSAGE is laid out as a reply with a value: the same writer and parser.
    ByteArrayProtoWriter message = new ByteArrayProtoWriter();
    ReplyWriter.writeValue(message, 3, STRING, "x", 0);
    StreamMessage parsedMessage = StreamMessage.parseFrom(message.toByteArray());
    assertEquals(3, parsedMessage.getStreamId());
    assertEquals("x", StringValue.parseFrom(parsedMessage.getValue()).getValue());
  }

  @Test
  void aMalformedStreamFrameIsAProtocolErrorNamingTheFrame() {
    ProtocolException e =
        assertThrows(
            ProtocolException.class,
            () -> StreamFrames.parseCredit(ByteBufferPayload.of(new byte[] {0x08})));
    assertEquals(
        "malformed STREAM_CREDIT frame: While parsing a protocol message, the input ended"
            + " unexpectedly in the middle of a field.  This could mean either that the input has"
            + " been truncated or that an embedded message misreported its own length.",
        e.getMessage());
  }

  @Test
  void theInitialCreditIsField7AfterTheMetadata() throws Exception {
    byte[] names = RequestWriter.nameFields("feed", "watch");
    byte[][] types = {RequestWriter.typeField("string")};
    @SuppressWarnings("unchecked")
    ValueCodec<Object>[] codecs = new ValueCodec[] {STRING};
    ByteArrayProtoWriter out = new ByteArrayProtoWriter();
    RequestWriter.write(out, 1, names, types, codecs, new Object[] {"a"}, 0, Map.of("k", "v"), null);
    RequestWriter.writeInitialCredit(out, 2);
    RPCXRequest expected =
        RPCXRequest.newBuilder()
            .setRequestId(1)
            .setService("feed")
            .setMethod("watch")
            .addArguments(
                Argument.newBuilder().setType("string").setValue(StringValue.of("a").toByteString()))
            .putMetadata("k", "v")
            .setInitialCredit(2)
            .build();
    assertEquals(hex(expected.toByteArray()), hex(out.toByteArray()));
    RequestEnvelope envelope = RequestEnvelope.parse(ByteBufferPayload.of(expected.toByteArray()), 1024);
    assertEquals(2, envelope.initialCredit());
    assertEquals(Map.of("k", "v"), envelope.metadata());
  }

  /** The byte-by-byte server stream of docs/PROTOCOL.md, section 5.6. */
  @Test
  void theDocumentedServerStreamIsExactlyWhatIsWritten() throws Exception {
    byte[] names = RequestWriter.nameFields("feed", "watch");
    byte[][] types = {RequestWriter.typeField("string")};
    @SuppressWarnings("unchecked")
    ValueCodec<Object>[] codecs = new ValueCodec[] {STRING};
    ByteArrayProtoWriter request = new ByteArrayProtoWriter();
    RequestWriter.write(request, 1, names, types, codecs, new Object[] {"a"}, 0, Map.of(), null);
    RequestWriter.writeInitialCredit(request, 2);
    assertEquals(
        "08 01 12 04 66 65 65 64 1a 05 77 61 74 63 68 22 0d 0a 06 73 74 72 69 6e 67 12 03 0a 01"
            + " 61 38 02",
        hex(request.toByteArray()));
    ByteArrayProtoWriter message = new ByteArrayProtoWriter();
    ReplyWriter.writeValue(message, 1, STRING, "x", 0);
    assertEquals("08 01 12 03 0a 01 78", hex(message.toByteArray()));
    ByteArrayProtoWriter credit = new ByteArrayProtoWriter();
    StreamFrames.writeCredit(credit, 1, 1);
    assertEquals("08 01 10 01", hex(credit.toByteArray()));
    ByteArrayProtoWriter end = new ByteArrayProtoWriter();
    StreamFrames.writeEnd(end, 1, null, "", null);
    assertEquals("08 01", hex(end.toByteArray()));
    ByteArrayProtoWriter cancel = new ByteArrayProtoWriter();
    StreamFrames.writeCancel(cancel, 1, "");
    assertEquals("08 01", hex(cancel.toByteArray()));
  }

  /** The byte-by-byte client stream of docs/PROTOCOL.md, section 5.7. */
  @Test
  void theDocumentedClientStreamIsExactlyWhatIsWritten() throws Exception {
    byte[] names = RequestWriter.nameFields("tally", "count");
    StreamCodec stream = new StreamCodec(STRING);
    byte[][] types = {RequestWriter.typeField(stream.typeName())};
    @SuppressWarnings("unchecked")
    ValueCodec<Object>[] codecs = new ValueCodec[] {stream};
    ByteArrayProtoWriter request = new ByteArrayProtoWriter();
    RequestWriter.write(request, 1, names, types, codecs, new Object[] {null}, 0, Map.of(), null);
    assertEquals(
        "08 01 12 05 74 61 6c 6c 79 1a 05 63 6f 75 6e 74 22 10 0a 0e 73 74 72 65 61 6d 3c 73 74"
            + " 72 69 6e 67 3e",
        hex(request.toByteArray()));
    ByteArrayProtoWriter credit = new ByteArrayProtoWriter();
    StreamFrames.writeCredit(credit, 1, 2);
    assertEquals("08 01 10 02", hex(credit.toByteArray()));
    ByteArrayProtoWriter message = new ByteArrayProtoWriter();
    ReplyWriter.writeValue(message, 1, stream.element(), "a", 0);
    assertEquals("08 01 12 03 0a 01 61", hex(message.toByteArray()));
    ByteArrayProtoWriter end = new ByteArrayProtoWriter();
    StreamFrames.writeEnd(end, 1, null, "", null);
    assertEquals("08 01", hex(end.toByteArray()));
    ByteArrayProtoWriter reply = new ByteArrayProtoWriter();
    @SuppressWarnings("unchecked")
    ValueCodec<Object> int64 =
        (ValueCodec<Object>) StandardCodecs.registry().codecFor(long.class);
    ReplyWriter.writeValue(reply, 1, int64, 2L, 0);
    assertEquals("08 01 12 02 08 02", hex(reply.toByteArray()));
  }

  private static String hex(byte[] bytes) {
    StringBuilder text = new StringBuilder();
    for (byte b : bytes) {
      text.append(text.length() == 0 ? "" : " ").append(String.format("%02x", b & 0xff));
    }
    return text.toString();
  }

  private static byte[] writeRequest(
      int id, Object[] args, int timeoutMillis, Map<String, String> metadata) throws Exception {
    byte[] names = RequestWriter.nameFields("orders", "loadOrder");
    byte[][] types = {RequestWriter.typeField("string"), RequestWriter.typeField("int32")};
    @SuppressWarnings("unchecked")
    ValueCodec<Object>[] codecs = new ValueCodec[] {STRING, INT};
    ByteArrayProtoWriter out = new ByteArrayProtoWriter();
    RequestWriter.write(out, id, names, types, codecs, args, timeoutMillis, metadata, null);
    return out.toByteArray();
  }
}
