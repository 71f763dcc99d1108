package io.rpcx.core.internal.grpc;

import io.rpcx.core.StatusCode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * RPCX's status codes as gRPC's, both ways (docs/GRPC.md, "Status"). A call RPCX refuses or fails
 * reaches a gRPC client with the code gRPC's own servers use for it; a gRPC server's code reaches
 * an RPCX caller as the typed exception nearest to its meaning.
 */
public final class GrpcStatus {
  public static final int OK = 0;
  public static final int CANCELLED = 1;
  public static final int UNKNOWN = 2;
  public static final int INVALID_ARGUMENT = 3;
  public static final int DEADLINE_EXCEEDED = 4;
  public static final int NOT_FOUND = 5;
  public static final int ALREADY_EXISTS = 6;
  public static final int PERMISSION_DENIED = 7;
  public static final int RESOURCE_EXHAUSTED = 8;
  public static final int FAILED_PRECONDITION = 9;
  public static final int ABORTED = 10;
  public static final int OUT_OF_RANGE = 11;
  public static final int UNIMPLEMENTED = 12;
  public static final int INTERNAL = 13;
  public static final int UNAVAILABLE = 14;
  public static final int DATA_LOSS = 15;
  public static final int UNAUTHENTICATED = 16;

  private GrpcStatus() {}

  /** The gRPC code of RPCX's {@code status}. */
  public static int of(StatusCode status) {
    switch (status) {
      case OK:
        return OK;
      case BAD_REQUEST:
        return INVALID_ARGUMENT;
      case NOT_FOUND:
        return UNIMPLEMENTED; // no such service or method, as gRPC's servers answer it
      case TIMEOUT:
        return DEADLINE_EXCEEDED;
      case UNAVAILABLE:
        return UNAVAILABLE;
      case REMOTE_FAILURE:
        return UNKNOWN; // the implementation threw, as grpc-java answers an uncaught exception
      case RESOURCE_EXHAUSTED:
        return RESOURCE_EXHAUSTED;
      case UNAUTHENTICATED:
        return UNAUTHENTICATED;
      case CANCELLED:
        return CANCELLED;
      case INTERNAL:
      default:
        return INTERNAL;
    }
  }

  /**
   * RPCX's status for gRPC's {@code code}. Codes that say the application refused or failed the
   * call for a reason of its own (NOT_FOUND, ALREADY_EXISTS, ABORTED, PERMISSION_DENIED...) are a
   * remote failure; codes RPCX does not know, an internal error.
   */
  public static StatusCode toRpcx(int code) {
    switch (code) {
      case OK:
        return StatusCode.OK;
      case CANCELLED:
        return StatusCode.CANCELLED;
      case INVALID_ARGUMENT:
      case OUT_OF_RANGE:
      case FAILED_PRECONDITION:
        return StatusCode.BAD_REQUEST;
      case DEADLINE_EXCEEDED:
        return StatusCode.TIMEOUT;
      case UNIMPLEMENTED:
        return StatusCode.NOT_FOUND;
      case RESOURCE_EXHAUSTED:
        return StatusCode.RESOURCE_EXHAUSTED;
      case UNAVAILABLE:
        return StatusCode.UNAVAILABLE;
      case UNAUTHENTICATED:
        return StatusCode.UNAUTHENTICATED;
      case UNKNOWN:
      case NOT_FOUND:
      case ALREADY_EXISTS:
      case PERMISSION_DENIED:
      case ABORTED:
        return StatusCode.REMOTE_FAILURE;
      case INTERNAL:
      case DATA_LOSS:
      default:
        return StatusCode.INTERNAL;
    }
  }

  /**
   * {@code message} as the {@code grpc-message} header carries it: UTF-8, with every byte outside
   * printable ASCII, and {@code %}, percent-encoded.
   */
  public static String encodeMessage(String message) {
    byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
    StringBuilder out = null;
    for (int i = 0; i < bytes.length; i++) {
      int b = bytes[i] & 0xff;
      boolean plain = b >= 0x20 && b < 0x7f && b != '%';
      if (plain && out == null) {
        continue;
      }
      if (out == null) {
        out = new StringBuilder(bytes.length + 16);
        for (int j = 0; j < i; j++) {
          out.append((char) bytes[j]);
        }
      }
      if (plain) {
        out.append((char) b);
      } else {
        out.append('%')
            .append(Character.toUpperCase(Character.forDigit(b >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
      }
    }
    return out == null ? message : out.toString();
  }

  /** A {@code grpc-message} header's text: percent-decoded UTF-8; bad escapes kept as they are. */
  public static String decodeMessage(CharSequence header) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(header.length());
    for (int i = 0; i < header.length(); i++) {
      char c = header.charAt(i);
      if (c == '%' && i + 2 < header.length()) {
        int high = Character.digit(header.charAt(i + 1), 16);
        int low = Character.digit(header.charAt(i + 2), 16);
        if (high >= 0 && low >= 0) {
          out.write((high << 4) | low);
          i += 2;
          continue;
        }
      }
      out.write(c);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** gRPC's name of {@code code}, as its tools print it: {@code UNIMPLEMENTED}, {@code code 42}. */
  public static String name(int code) {
    String[] names = {
      "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
      "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
      "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"
    };
    return code >= 0 && code < names.length ? names[code] : "code " + code;
  }
}
