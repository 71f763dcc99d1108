package io.rpcx.core.internal.model;

/**
 * The characters published names may use, checked at start-up so that {@code service/method} in
 * every message and log names exactly one method. A method name is one identifier; a service name
 * is one or more identifiers joined by single dots ({@code orders}, {@code shop.v1.Orders}). An
 * identifier starts with an ASCII letter, {@code _} or {@code $} and goes on with those, ASCII
 * digits and {@code -}. No name contains a {@code /}.
 */
final class Names {
  private static final String RULE =
      "ASCII letters, digits, '_', '$' and '-', starting with a letter, '_' or '$'";

  private Names() {}

  /** Checks a service name; {@code owner} names where it was declared, for the message. */
  static String checkService(String name, String owner) {
    if (!isService(name)) {
      throw new IllegalArgumentException(
          "service name '" + name + "' of " + owner + " is not valid (expected: " + RULE
              + ", in parts joined by single dots, such as 'orders' or 'shop.v1.Orders')");
    }
    return name;
  }

  /** Checks a method name; {@code method} describes the Java method, for the message. */
  static String checkMethod(String name, String method) {
    if (!isIdentifier(name, 0, name.length())) {
      throw new IllegalArgumentException(
          "method name '" + name + "' of " + method + " is not valid (expected: " + RULE
              + ", such as 'findOrder'; publish it under a valid name with @Method)");
    }
    return name;
  }

  static boolean isService(String name) {
    int start = 0;
    while (true) {
      int dot = name.indexOf('.', start);
      int end = dot < 0 ? name.length() : dot;
      if (!isIdentifier(name, start, end)) {
        return false;
      }
      if (dot < 0) {
        return true;
      }
      start = dot + 1;
    }
  }

  private static boolean isIdentifier(String name, int start, int end) {
    if (start >= end || !isStart(name.charAt(start))) {
      return false;
    }
    for (int i = start + 1; i < end; i++) {
      char c = name.charAt(i);
      if (!isStart(c) && !(c >= '0' && c <= '9') && c != '-') {
        return false;
      }
    }
    return true;
  }

  private static boolean isStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
  }
}
