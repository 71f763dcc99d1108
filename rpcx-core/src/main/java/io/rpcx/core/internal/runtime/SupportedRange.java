package io.rpcx.core.internal.runtime;

import io.rpcx.core.UnsupportedRuntimeException;

/**
 * The versions of one library RPCX runs with, from {@code minimum} up to, not including, {@code
 * end}, and the message that names them when the class path holds another. Immutable.
 */
final class SupportedRange {
  private final String library;
  private final String minimum;
  private final Version minimumVersion;
  private final Version end;
  private final String upTo;
  private final String advice;

  /**
   * @param library the library's name in messages ({@code protobuf-java}, {@code Netty})
   * @param minimum the oldest supported version, as its releases spell it
   * @param end the first version no longer supported
   * @param upTo the newest supported line, as said in messages ({@code 4.x})
   * @param advice what to do about it, appended to the message
   */
  SupportedRange(String library, String minimum, Version end, String upTo, String advice) {
    this.library = library;
    this.minimum = minimum;
    this.minimumVersion = Version.parse(minimum);
    this.end = end;
    this.upTo = upTo;
    this.advice = advice;
  }

  /** Whether {@code version} is in the range; a version that is not a number is taken as in. */
  boolean contains(String version) {
    Version found = Version.parse(version);
    return found == null || (found.compareTo(minimumVersion) >= 0 && found.compareTo(end) < 0);
  }

  /**
   * The message for a class path holding {@code found}: {@code "RPCX needs protobuf-java 3.25.0
   * or newer (up to 4.x); found 3.21.12 on the class path. ..."}.
   */
  UnsupportedRuntimeException problem(String found) {
    return new UnsupportedRuntimeException(
        library, found, minimum + " or newer (up to " + upTo + ")", advice);
  }
}
