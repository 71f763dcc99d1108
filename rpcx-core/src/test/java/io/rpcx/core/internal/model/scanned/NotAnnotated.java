package io.rpcx.core.internal.model.scanned;

/** Not annotated: a scan must skip it. */
public interface NotAnnotated {
  void nothing();
}
