package io.rpcx.testsuite.architecture.a;

import io.rpcx.testsuite.architecture.b.CycleB;

/** Half of a package cycle that ArchitectureTest must catch. */
public final class CycleA {
  CycleB other;
}
