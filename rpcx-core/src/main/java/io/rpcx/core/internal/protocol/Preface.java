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
