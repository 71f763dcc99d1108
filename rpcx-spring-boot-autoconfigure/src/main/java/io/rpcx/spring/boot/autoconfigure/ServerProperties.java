package io.rpcx.spring.boot.autoconfigure;

import io.rpcx.core.TlsConfig;
import io.rpcx.server.RpcxServer;
import io.rpcx.server.ServerInterceptors;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ssl.SslBundles;

/** Applies the {@code rpcx.server.*} properties to a server builder. */
final class ServerProperties {
  private final RpcxProperties.Server server;
  private final ObjectProvider<SslBundles> sslBundles;
  private final PropertyTarget target = new PropertyTarget("rpcx.server");

  ServerProperties(RpcxProperties.Server server, ObjectProvider<SslBundles> sslBundles) {
    this.server = server;
    this.sslBundles = sslBundles;
  }

  void applyTo(RpcxServer.Builder builder) {
    target.set("port", server.getPort(), builder::port);
    target.set("bind-address", server.getBindAddress(), builder::bindAddress);
    target.set("worker-threads", server.getWorkerThreads(), builder::workerThreads);
    target.set("max-queued-calls", server.getMaxQueuedCalls(), builder::maxQueuedCalls);
    target.set("max-connections", server.getMaxConnections(), builder::maxConnections);
    target.set(
        "max-concurrent-calls-per-connection",
        server.getMaxConcurrentCallsPerConnection(),
        builder::maxConcurrentCallsPerConnection);
    if (server.getMaxFrameSize() != null) {
      target.set(
          "max-frame-size",
          server.getMaxFrameSize(),
          target.bytes("max-frame-size", server.getMaxFrameSize()),
          builder::maxFrameSize);
    }
    if (server.getMaxMetadataSize() != null) {
      target.set(
          "max-metadata-size",
          server.getMaxMetadataSize(),
          target.bytes("max-metadata-size", server.getMaxMetadataSize()),
          builder::maxMetadataBytes);
    }
    target.set("max-stream-window", server.getMaxStreamWindow(), builder::maxStreamWindow);
    if (server.getMaxStreamBufferedBytes() != null) {
      target.set(
          "max-stream-buffered-bytes",
          server.getMaxStreamBufferedBytes(),
          server.getMaxStreamBufferedBytes().toBytes(),
          builder::maxStreamBufferedBytes);
    }
    target.set("idle-timeout", server.getIdleTimeout(), builder::idleTimeout);
    target.set(
        "shutdown-grace-period", server.getShutdownGracePeriod(), builder::shutdownGracePeriod);
    target.set("advertise-host", server.getAdvertiseHost(), builder::advertise);
    builder.reflection(server.isReflection());
    builder
        .grpc(server.getGrpc().isEnabled())
        .grpcHealth(server.getGrpc().isHealth())
        .grpcReflection(server.getGrpc().isReflection());
    TlsConfig tls = SslBundleTls.server(server.getSsl(), sslBundles, target);
    if (tls != null) {
      builder.tls(tls);
    }
  }

  /**
   * Adds the check of {@code rpcx.server.bearer-tokens}, if set: after the observation
   * instrumentation, so that the calls it refuses are observed too.
   */
  void applyAuthenticationTo(RpcxServer.Builder builder) {
    if (!server.getBearerTokens().isEmpty()) {
      builder.intercept(ServerInterceptors.bearerToken(accepted(server.getBearerTokens())));
    }
  }

  /** Whether a token is one of {@code tokens}, compared in time that does not depend on where they differ. */
  private Predicate<String> accepted(List<String> tokens) {
    List<byte[]> accepted = new ArrayList<>();
    for (int i = 0; i < tokens.size(); i++) {
      String token = tokens.get(i);
      if (token == null || token.isBlank()) {
        throw target.invalid("bearer-tokens[" + i + "]", token, "a token that is not blank", null);
      }
      accepted.add(token.getBytes(StandardCharsets.UTF_8));
    }
    return token -> {
      byte[] given = token.getBytes(StandardCharsets.UTF_8);
      boolean found = false;
      for (byte[] candidate : accepted) {
        found |= MessageDigest.isEqual(candidate, given);
      }
      return found;
    };
  }
}
