/**
 * Discovery of servers: {@link io.rpcx.core.discovery.ServiceDiscovery} tells clients where a
 * service runs, {@link io.rpcx.core.discovery.ServiceRegistrar} lets servers announce themselves,
 * and {@link io.rpcx.core.discovery.StaticDiscovery} is the built-in fixed list.
 */
package io.rpcx.core.discovery;
