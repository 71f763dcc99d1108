package io.rpcx.core.internal.codec;

import java.io.IOException;

/**
 * A value could not be encoded or decoded: malformed or truncated bytes, a value out of range for
 * its Java type, an unknown enum constant, nesting too deep. The message names what was wrong; the
 * caller adds which call and argument it was.
 */
public final class CodecException extends IOException {
  private static final long serialVersionUID = 1L;

  public CodecException(String message) {
    super(message);
  }

  public CodecException(String message, Throwable cause) {
    super(message, cause);
  }
}
