package io.rpcx.core.internal.codec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A declared type that RPCX cannot carry. Raised when a service is registered, never during a call.
 * Carries the path from the declared type down to the offending nested type so that the message can
 * say exactly where the problem is.
 */
public final class UnsupportedTypeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String typeName;
  private final String reason;
  private final List<String> path;

  public UnsupportedTypeException(String typeName, String reason) {
    this(typeName, reason, List.of());
  }

  private UnsupportedTypeException(String typeName, String reason, List<String> path) {
    super(format(typeName, reason, path));
    this.typeName = typeName;
    this.reason = reason;
    this.path = path;
  }

  /** The same problem, seen from one level further out: {@code role} contains the previous type. */
  UnsupportedTypeException within(String role) {
    List<String> longer = new ArrayList<>(path.size() + 1);
    longer.addAll(path);
    longer.add(role);
    return new UnsupportedTypeException(typeName, reason, Collections.unmodifiableList(longer));
  }

  private static String format(String typeName, String reason, List<String> path) {
    StringBuilder message = new StringBuilder("unsupported type ").append(typeName);
    for (String role : path) {
      message.append(", ").append(role);
    }
    return message.append(": ").append(reason).toString();
  }
}
