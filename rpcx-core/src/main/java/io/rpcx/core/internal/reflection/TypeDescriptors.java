package io.rpcx.core.internal.reflection;

import java.util.ArrayList;
import java.util.List;

/** Reads RPCX type descriptors: {@code map<string,list<Order>>} is {@code map} of two arguments. */
final class TypeDescriptors {
  private TypeDescriptors() {}

  /** The name before the type arguments: {@code list}, {@code map}, {@code Page}, {@code int64}. */
  static String head(String descriptor) {
    int open = descriptor.indexOf('<');
    return open < 0 ? descriptor : descriptor.substring(0, open);
  }

  /** The type arguments, split at the top-level commas; empty for a type without any. */
  static List<String> arguments(String descriptor) {
    int open = descriptor.indexOf('<');
    if (open < 0) {
      return List.of();
    }
    if (!descriptor.endsWith(">")) {
      throw new IllegalArgumentException("malformed type descriptor: " + descriptor);
    }
    List<String> arguments = new ArrayList<>();
    int depth = 0;
    int start = open + 1;
    for (int i = start; i < descriptor.length() - 1; i++) {
      char c = descriptor.charAt(i);
      if (c == '<') {
        depth++;
      } else if (c == '>') {
        depth--;
      } else if (c == ',' && depth == 0) {
        arguments.add(descriptor.substring(start, i).trim());
        start = i + 1;
      }
    }
    arguments.add(descriptor.substring(start, descriptor.length() - 1).trim());
    return arguments;
  }
}
