/**
 * RPCX in a Spring Boot application: {@link io.rpcx.spring.boot.EnableRpcxClients} for clients as
 * beans, the builder customizers, and {@link io.rpcx.spring.boot.LocalRpcxServerPort}. Beans
 * annotated {@code @RPCXServer} are published without any annotation here.
 */
package io.rpcx.spring.boot;
