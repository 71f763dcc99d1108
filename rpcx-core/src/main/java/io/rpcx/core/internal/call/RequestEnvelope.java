package io.rpcx.core.internal.call;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import io.rpcx.core.StatusCode;
import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.PeerSchemas;
import io.rpcx.core.internal.codec.Utf8Strings;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.protocol.Payload;
import io.rpcx.core.internal.protocol.ProtocolException;
import io.rpcx.core.internal.protocol.RequestWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * A received {@code RPCXRequest} (RPCX's own protocol): request id, names, timeout and metadata,
 * with the arguments located but not decoded, in the frame payload it holds. The server picks the
 * method from the names before it decodes any argument; the argument bytes are read later, in
 * place ({@link #arguments}).
 */
public final class RequestEnvelope implements CallRequest {
  private final int requestId;
  private final String service;
  private final String method;
  private final int argumentCount;
  /** Per argument: type offset, type length, value offset, value length (-1 when absent). */
  private final int[] regions;
  private final int timeoutMillis;
  private final Map<String, String> metadata;
  private final int initialCredit;
  private Payload payload;

  private RequestEnvelope(
      Payload payload,
      int requestId,
      String service,
      String method,
      int argumentCount,
      int[] regions,
      int timeoutMillis,
      Map<String, String> metadata,
      int initialCredit) {
    this.payload = payload;
    this.initialCredit = initialCredit;
    this.requestId = requestId;
    this.service = service;
    this.method = method;
    this.argumentCount = argumentCount;
    this.regions = regions;
    this.timeoutMillis = timeoutMillis;
    this.metadata = metadata;
  }

  /**
   * Parses the envelope of a request payload, which it then holds (until {@link #release}).
   *
   * @param maxMetadataBytes limit on the encoded size of all metadata entries together
   * @throws ProtocolException if the payload is not a well-formed request
   */
  public static RequestEnvelope parse(Payload payload, int maxMetadataBytes)
      throws ProtocolException {
    long requestId = ProtocolException.NO_REQUEST_ID;
    int base = 0;
    CodedInputStream in = payload.input(0, payload.length());
    String service = "";
    String method = "";
    int count = 0;
    int[] regions = new int[16];
    int timeoutMillis = 0;
    int initialCredit = 0;
    Map<String, String> metadata = Map.of();
    int metadataBytes = 0;
    try {
      while (true) {
        int tag = in.readTag();
        if (tag == 0) {
          break;
        }
        switch (tag) {
          case (RequestWriter.REQUEST_ID << 3) | WireFormat.WIRETYPE_VARINT:
            requestId = Integer.toUnsignedLong(in.readUInt32());
            break;
          case (RequestWriter.SERVICE << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
            service = Utf8Strings.read(in);
            break;
          case (RequestWriter.METHOD << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
            method = Utf8Strings.read(in);
            break;
          case (RequestWriter.ARGUMENTS << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
            if (4 * count + 4 > regions.length) {
              regions = Arrays.copyOf(regions, regions.length * 2);
            }
            readArgument(in, base, regions, 4 * count);
            count++;
            break;
          case (RequestWriter.TIMEOUT_MILLIS << 3) | WireFormat.WIRETYPE_VARINT:
            timeoutMillis = in.readUInt32();
            break;
          case (RequestWriter.INITIAL_CREDIT << 3) | WireFormat.WIRETYPE_VARINT:
            initialCredit = in.readUInt32();
            break;
          case (RequestWriter.METADATA << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED:
            int entryLength = in.readRawVarint32();
            metadataBytes += entryLength;
            if (metadataBytes > maxMetadataBytes || entryLength < 0) {
              throw new ProtocolException(
                  requestId,
                  StatusCode.RESOURCE_EXHAUSTED,
                  "request metadata exceeds " + maxMetadataBytes + " bytes",
                  null);
            }
            if (metadata.isEmpty()) {
              metadata = new HashMap<>();
            }
            readMetadataEntry(in, entryLength, metadata);
            break;
          default:
            in.skipField(tag);
        }
      }
    } catch (InvalidProtocolBufferException e) {
      throw new ProtocolException(
          requestId, StatusCode.BAD_REQUEST, "malformed request: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new ProtocolException(
          requestId, StatusCode.BAD_REQUEST, "malformed request: " + e.getMessage(), e);
    }
    if (requestId == ProtocolException.NO_REQUEST_ID) {
      requestId = 0; // proto3 leaves out a zero request_id
    }
    return new RequestEnvelope(
        payload, (int) requestId, service, method, count, regions, timeoutMillis,
        // Read only: handed to user code. A view, not a copy: nothing else holds the map.
        metadata.isEmpty() ? metadata : Collections.unmodifiableMap(metadata),
        initialCredit);
  }

  private static void readArgument(CodedInputStream in, int base, int[] regions, int at)
      throws IOException {
    int oldLimit = in.pushLimit(in.readRawVarint32());
    regions[at] = 0;
    regions[at + 1] = 0;
    regions[at + 2] = 0;
    regions[at + 3] = -1;
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      }
      int field = WireFormat.getTagFieldNumber(tag);
      if ((field == RequestWriter.ARGUMENT_TYPE || field == RequestWriter.ARGUMENT_VALUE)
          && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        int length = in.readRawVarint32();
        int offset = base + in.getTotalBytesRead();
        in.skipRawBytes(length);
        int slot = field == RequestWriter.ARGUMENT_TYPE ? at : at + 2;
        regions[slot] = offset;
        regions[slot + 1] = length;
      } else {
        in.skipField(tag);
      }
    }
    in.popLimit(oldLimit);
  }

  private static void readMetadataEntry(
      CodedInputStream in, int length, Map<String, String> metadata) throws IOException {
    int oldLimit = in.pushLimit(length);
    String key = "";
    String value = "";
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      }
      int field = WireFormat.getTagFieldNumber(tag);
      if (field == RequestWriter.ENTRY_KEY
          && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        key = Utf8Strings.read(in);
      } else if (field == RequestWriter.ENTRY_VALUE
          && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        value = Utf8Strings.read(in);
      } else {
        in.skipField(tag);
      }
    }
    in.popLimit(oldLimit);
    metadata.put(key, value);
  }

  @Override
  public int requestId() {
    return requestId;
  }

  @Override
  public String service() {
    return service;
  }

  @Override
  public String method() {
    return method;
  }

  public int argumentCount() {
    return argumentCount;
  }

  @Override
  public int timeoutMillis() {
    return timeoutMillis;
  }

  @Override
  public int initialCredit() {
    return initialCredit;
  }

  @Override
  public Map<String, String> metadata() {
    return metadata;
  }

  @Override
  public Object[] arguments(MethodModel model, int maxDepth, PeerSchemas schemas)
      throws CodecException {
    return ArgumentDecoder.decode(model, this, maxDepth, schemas);
  }

  @Override
  public void release() {
    Payload held = payload;
    if (held != null) {
      payload = null;
      held.release();
    }
  }

  /** Whether argument {@code index}'s type descriptor is exactly the UTF-8 bytes {@code expected}. */
  public boolean typeEquals(int index, byte[] expected) {
    return regions[4 * index + 1] == expected.length
        && payload.regionEquals(regions[4 * index], expected);
  }

  /** Argument {@code index}'s type descriptor as sent, for error messages. */
  public String typeName(int index) {
    return new String(
        payload.bytes(regions[4 * index], Math.min(regions[4 * index + 1], 128)),
        StandardCharsets.UTF_8);
  }

  /** Whether argument {@code index} has a value (an absent one is null or a stream's). */
  public boolean hasValue(int index) {
    return regions[4 * index + 3] > 0;
  }

  /**
   * What {@code reader} reads from argument {@code index}'s value wrapper ({@link
   * Payload#readValue}, {@code bulkBytes} as there), or {@code null} when it is absent.
   */
  public <T, E extends Exception> T readValue(
      int index, boolean bulkBytes, Payload.ValueReader<T, E> reader) throws E {
    int length = regions[4 * index + 3];
    if (length <= 0) {
      return null;
    }
    return payload.readValue(regions[4 * index + 2], length, bulkBytes, reader);
  }
}
