/**
 * Types shared by the RPCX client and server that users see: the {@link io.rpcx.core.StatusCode} of a
 * call and the {@link io.rpcx.core.RpcxException} hierarchy.
 *
 * <p>Everything under {@code io.rpcx.core.internal} is implementation and may change without notice.
 */
package io.rpcx.core;
