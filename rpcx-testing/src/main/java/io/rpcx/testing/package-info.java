/**
 * Testing RPCX services with JUnit Jupiter (5 or 6): {@link io.rpcx.testing.RpcxExtension} runs a
 * server and a client, over loopback TCP or in-process, injects scripted {@link
 * io.rpcx.testing.Faults} and checks for leaks after each test.
 *
 * <p>Everything under {@code io.rpcx.testing.internal} is implementation and may change without
 * notice.
 */
package io.rpcx.testing;
