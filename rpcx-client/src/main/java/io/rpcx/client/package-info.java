/**
 * The RPCX client: {@link io.rpcx.client.RpcxClient} turns interfaces annotated
 * {@code @RPCXClient} into proxies that call remote services.
 *
 * <p>Everything under {@code io.rpcx.client.internal} is implementation and may change without
 * notice.
 */
package io.rpcx.client;
