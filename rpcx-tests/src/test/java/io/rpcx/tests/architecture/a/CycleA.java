package io.rpcx.tests.architecture.a;

import io.rpcx.tests.architecture.b.CycleB;

/** Half of a package cycle that ArchitectureTest must catch. */
public final class CycleA {
  CycleB other;
}
