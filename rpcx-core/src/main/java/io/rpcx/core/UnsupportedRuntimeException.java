package io.rpcx.core;

/**
 * The class path holds a version of a library RPCX does not run with (protobuf-java, Netty, or the
 * framework an integration module is built for): thrown when a client or server is built, naming
 * the library, the version found and the versions supported, so that a build whose dependency
 * management pins another version fails at start-up with a message that says so.
 */
public final class UnsupportedRuntimeException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private final String library;
  private final String found;
  private final String supported;
  private final String advice;

  /**
   * {@code library} (as its releases name it) is at {@code found}, where RPCX runs with {@code
   * supported} ("3.25.0 or newer (up to 4.x)"); {@code advice} says what to change.
   */
  public UnsupportedRuntimeException(
      String library, String found, String supported, String advice) {
    super("RPCX needs " + library + " " + supported + "; found " + found + " on the class path. "
        + advice);
    this.library = library;
    this.found = found;
    this.supported = supported;
    this.advice = advice;
  }

  /** The library, {@code Netty} say. */
  public String library() {
    return library;
  }

  /** The version found on the class path. */
  public String found() {
    return found;
  }

  /** The versions RPCX runs with. */
  public String supported() {
    return supported;
  }

  /** What to change in the build. */
  public String advice() {
    return advice;
  }
}
