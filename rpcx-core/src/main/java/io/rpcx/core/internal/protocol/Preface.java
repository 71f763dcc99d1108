package io.rpcx.core.internal.protocol;

/**
 * The 8 bytes each side sends first on a connection: the ASCII magic {@code RPCX}, the protocol
 * version as a 16-bit big-endian number, and 16 reserved bits that must be zero. A peer that
 * starts differently is not an RPCX peer and is turned away at once.
 */
public final class Preface {
  /** Length of the preface in bytes. */
  public static final int LENGTH = 8;
  /** {@code "RPCX"} in ASCII, big-endian. */
  public static final int MAGIC = 0x52504358;
  /** The protocol version this implementation speaks. */
  public static final int VERSION = 1;

  private Preface() {}

  /** The preface bytes of this implementation's version. */
  public static byte[] bytes() {
    return new byte[] {'R', 'P', 'C', 'X', 0, (byte) VERSION, 0, 0};
  }

  /**
   * What {@code received} (the first 8 bytes of a connection, not RPCX's) is when it starts a TLS
   * record (content type 20 to 23, then major version 3): "a TLS ClientHello", "a TLS alert", ...;
   * {@code null} otherwise. A TLS peer on a connection without TLS is the most common wrong
   * preface, and its bytes say nothing to a person.
   */
  public static String tlsRecord(byte[] received) {
    if (received.length < 6 || received[1] != 3 || (received[2] & 0xff) > 4) {
      return null;
    }
    switch (received[0]) {
      case 20:
        return "a TLS ChangeCipherSpec record";
      case 21:
        return "a TLS alert";
      case 22:
        switch (received[5]) {
          case 1:
            return "a TLS ClientHello";
          case 2:
            return "a TLS ServerHello";
          default:
            return "a TLS handshake record";
        }
      case 23:
        return "a TLS application data record";
      default:
        return null;
    }
  }

  /** Describes up to the first 8 received bytes for an error message: hex, plus text if printable. */
  public static String describe(byte[] received, int length) {
    StringBuilder hex = new StringBuilder("0x");
    StringBuilder text = new StringBuilder();
    boolean printable = true;
    for (int i = 0; i < length; i++) {
      int b = received[i] & 0xff;
      hex.append(Character.forDigit(b >> 4, 16)).append(Character.forDigit(b & 0xf, 16));
      if (b >= 0x20 && b < 0x7f) {
        text.append((char) b);
      } else {
        printable = false;
      }
    }
    return printable && length > 0 ? hex + " ('" + text + "')" : hex.toString();
  }
}
