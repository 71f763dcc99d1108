package io.rpcx.tests.architecture.b;

import io.rpcx.tests.architecture.a.CycleA;

/** The other half of a package cycle that ArchitectureTest must catch. */
public final class CycleB {
  CycleA other;
}
