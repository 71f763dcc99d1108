package io.rpcx.testsuite.architecture.b;

import io.rpcx.testsuite.architecture.a.CycleA;

/** The other half of a package cycle that ArchitectureTest must catch. */
public final class CycleB {
  CycleA other;
}
