package io.rpcx.http.internal;

import io.rpcx.core.reflection.MethodDescription;
import io.rpcx.core.reflection.ParameterDescription;

/** What a method's description says about its streams. Stateless. */
final class Signatures {
  private Signatures() {}

  /** Whether {@code type} is a stream's ({@code stream<T>}). */
  static boolean isStream(String type) {
    return type.startsWith("stream<") && type.endsWith(">");
  }

  /** The element type of {@code stream<T>}. */
  static String element(String streamType) {
    return streamType.substring("stream<".length(), streamType.length() - 1);
  }

  /** Whether the method takes a stream argument (a client or bidirectional stream). */
  static boolean takesStream(MethodDescription method) {
    for (ParameterDescription parameter : method.parameters()) {
      if (isStream(parameter.type())) {
        return true;
      }
    }
    return false;
  }
}
