package io.rpcx.core.internal.transport;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.rpcx.core.TlsConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/** Turns a {@link TlsConfig} into Netty's TLS context and handlers (JDK TLS provider). */
public final class SslContexts {
  private SslContexts() {}

  /** The Netty context of {@code config}; fails at once on unreadable or invalid files. */
  public static SslContext create(TlsConfig config) {
    return create(config, List.of());
  }

  /**
   * The Netty context of {@code config}, a server's offering {@code protocols} by ALPN ({@code h2}
   * for gRPC beside RPCX on the same port): a client that offers one of them gets it; one that
   * offers none (RPCX's own) still connects. A client's asks for {@code protocols}; whether the
   * server chose one of them is its handler's to check once the handshake is done ({@code
   * SslHandler.applicationProtocol()}), so that a refusal gets a message of its own.
   */
  public static SslContext create(TlsConfig config, List<String> protocols) {
    try {
      SslContextBuilder builder;
      if (config.isServer()) {
        builder =
            config.keyManager() != null
                ? SslContextBuilder.forServer(config.keyManager())
                : SslContextBuilder.forServer(
                    config.certificateChain().toFile(), config.privateKey().toFile());
        builder.clientAuth(config.requireClientCertificate() ? ClientAuth.REQUIRE : ClientAuth.NONE);
        if (!protocols.isEmpty()) {
          builder.applicationProtocolConfig(
              new ApplicationProtocolConfig(
                  ApplicationProtocolConfig.Protocol.ALPN,
                  ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                  ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                  protocols));
        }
      } else {
        builder = SslContextBuilder.forClient();
        if (config.keyManager() != null) {
          builder.keyManager(config.keyManager());
        } else if (config.certificateChain() != null) {
          builder.keyManager(config.certificateChain().toFile(), config.privateKey().toFile());
        }
        if (!protocols.isEmpty()) {
          builder.applicationProtocolConfig(
              new ApplicationProtocolConfig(
                  ApplicationProtocolConfig.Protocol.ALPN,
                  ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                  ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                  protocols));
        }
      }
      if (config.trustManager() != null) {
        builder.trustManager(config.trustManager());
      } else if (config.trustedCertificates() != null) {
        builder.trustManager(config.trustedCertificates().toFile());
      }
      return builder
          .sslProvider(SslProvider.JDK)
          .protocols(config.protocols().toArray(new String[0]))
          .build();
    } catch (SSLException e) {
      throw new UncheckedIOException(new IOException("invalid TLS settings: " + e.getMessage(), e));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid TLS settings: " + e.getMessage(), e);
    }
  }

  /** A client-side handler for {@code host:port}, checking the host name when asked to. */
  public static SslHandler clientHandler(
      SslContext context, ByteBufAllocator allocator, String host, int port, boolean verifyHost) {
    SslHandler handler = context.newHandler(allocator, host, port);
    if (verifyHost) {
      SSLEngine engine = handler.engine();
      SSLParameters parameters = engine.getSSLParameters();
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
      engine.setSSLParameters(parameters);
    }
    return handler;
  }
}
