/**
 * What a server publishes, described for tools: the {@link io.rpcx.core.reflection.ReflectionService}
 * a server answers when built with {@code reflection(true)}, the descriptions it returns, and
 * {@link io.rpcx.core.reflection.ProtoSchemas}, which turns RPCX interfaces into {@code .proto} files
 * and a protobuf {@code FileDescriptorSet} that describe the bytes RPCX puts on the wire.
 */
package io.rpcx.core.reflection;
