package io.rpcx.core.internal.runtime;

/**
 * The numeric part of a library version: {@code 4.2.18.Final} is 4.2.18, {@code 3.25.8} is
 * 3.25.8, {@code 4.0.0-rc2} is 4.0.0. Immutable.
 */
record Version(int major, int minor, int patch) implements Comparable<Version> {

  /** The version {@code text} starts with, or {@code null} if it does not start with a number. */
  static Version parse(String text) {
    int[] parts = new int[3];
    int part = 0;
    int i = 0;
    while (part < 3 && i < text.length() && Character.isDigit(text.charAt(i))) {
      int value = 0;
      while (i < text.length() && Character.isDigit(text.charAt(i)) && value < 100_000) {
        value = value * 10 + (text.charAt(i++) - '0');
      }
      parts[part++] = value;
      if (i < text.length() && text.charAt(i) == '.') {
        i++;
      } else {
        break;
      }
    }
    return part == 0 ? null : new Version(parts[0], parts[1], parts[2]);
  }

  @Override
  public int compareTo(Version other) {
    if (major != other.major) {
      return Integer.compare(major, other.major);
    }
    if (minor != other.minor) {
      return Integer.compare(minor, other.minor);
    }
    return Integer.compare(patch, other.patch);
  }
}
