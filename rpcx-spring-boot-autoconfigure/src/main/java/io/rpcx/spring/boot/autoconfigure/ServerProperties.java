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
import org.springframework.util.ClassUtils;

/** Applies the {@code rpcx.server.*} properties to a server builder. */
final class ServerProperties {
  private final RpcxProperties.Server server;
  private final ObjectProvider<SslBundles> sslBundles;
  private final ClassLoader classLoader;
  private final PropertyTarget target = new PropertyTarget("rpcx.server");

  /**
   * The properties {@code server}, with the application's {@code sslBundles}, and the {@code
   * classLoader} of its beans, where the optional modules are looked for.
   */
  ServerProperties(
      RpcxProperties.Server server,
      ObjectProvider<SslBundles> sslBundles,
      ClassLoader classLoader) {
    this.server = server;
    this.sslBundles = sslBundles;
    this.classLoader = classLoader;
  }

  void applyTo(RpcxServer.Builder builder) {
    target.set("port", server.getPort(), builder::port);
    target.set("bind-address", server.getBindAddress(), builder::bindAddress);
    target.set("worker-threads", server.getWorkerThreads(), builder::workerThreads);
    target.set("max-queued-calls", server.getMaxQueuedCalls(), builder::maxQueuedCalls);
    target.set("max-connections", server.getMaxConnections(), builder::maxConnections);
    target.set(
        "max-handshaking-connections",
        server.getMaxHandshakingConnections(),
        builder::maxHandshakingConnections);
    target.set(
        "max-handshaking-connections-per-address",
        server.getMaxHandshakingConnectionsPerAddress(),
        builder::maxHandshakingConnectionsPerAddress);
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
    builder.sendStackTraces(server.isSendStackTraces());
    builder.nonBlockingOnEventLoop(server.isNonBlockingOnEventLoop());
    target.set(
        "blocked-event-loop-threshold",
        server.getBlockedEventLoopThreshold(),
        builder::blockedEventLoopThreshold);
    applyHttpTo(builder);
    TlsConfig tls = SslBundleTls.server(server.getSsl(), sslBundles, target);
    if (tls != null) {
      builder.tls(tls);
    }
  }

  /** {@code rpcx.server.http.*}: ignored while {@code enabled} is false, as HTTP is off. */
  private void applyHttpTo(RpcxServer.Builder builder) {
    RpcxProperties.ServerHttp http = server.getHttp();
    if (!http.isEnabled()) {
      return;
    }
    if (!ClassUtils.isPresent(HttpProperties.RPCX_HTTP, classLoader)) {
      throw target.problem(
          "http.enabled",
          "rpcx.server.http.enabled is true, but io.rpcx:rpcx-http, which serves HTTP, is not on"
              + " the class path.",
          "Add the dependency io.rpcx:rpcx-http (rpcx-bom manages its version), or set"
              + " rpcx.server.http.enabled=false.");
    }
    if ((http.isOpenApi() || http.isConsole()) && !server.isReflection()) {
      String property = http.isOpenApi() ? "http.open-api" : "http.console";
      String shown = http.isOpenApi() ? "OpenAPI document" : "service console";
      throw target.problem(
          property,
          "rpcx.server." + property + " is true, but rpcx.server.reflection is not. The " + shown
              + " shows the services' shape only to callers the server lets call its reflection"
              + " service (rpcx.reflection.v1.Reflection), which it publishes only with"
              + " rpcx.server.reflection=true.",
          "Set rpcx.server.reflection=true (rpcx.server.bearer-tokens, if set, then guard the "
              + shown + " too), or set rpcx.server." + property + "=false.");
    }
    HttpProperties.applyTo(http, target, builder);
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
