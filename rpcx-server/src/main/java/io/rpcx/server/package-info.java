/**
 * The RPCX server: {@link io.rpcx.server.RpcxServer} publishes service implementations.
 *
 * <p>Everything under {@code io.rpcx.server.internal} is implementation and may change without
 * notice.
 */
package io.rpcx.server;
