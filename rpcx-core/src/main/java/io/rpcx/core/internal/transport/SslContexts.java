package io.rpcx.core.internal.transport;

import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.rpcx.core.TlsConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import javax.net.ssl.SSLException;

/**
 * Turns a {@link TlsConfig} into Netty's TLS context, on OpenSSL when {@code netty-tcnative} is on
 * the class path (or when asked for), else on the JDK's provider. Stateless.
 */
final class SslContexts {
  private SslContexts() {}

  /**
   * The Netty context of {@code config} on {@code provider}, a server's offering {@code protocols}
   * by ALPN ({@code h2} for gRPC beside RPCX on the same port): a client that offers one of them
   * gets it; one that offers none (RPCX's own) still connects. A client's asks for {@code
   * protocols}; whether the server chose one of them is its handler's to check once the handshake
   * is done ({@code SslHandler.applicationProtocol()}), so that a refusal gets a message of its
   * own. Fails at once on unreadable or invalid files.
   */
  static SslContext create(TlsConfig config, SslProvider provider, List<String> protocols) {
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
          .sslProvider(provider)
          .protocols(config.protocols().toArray(new String[0]))
          .build();
    } catch (SSLException e) {
      throw new UncheckedIOException(new IOException("invalid TLS settings: " + e.getMessage(), e));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid TLS settings: " + e.getMessage(), e);
    }
  }

  /** Netty's provider for {@code wanted}: OpenSSL if asked for, or if it loads when either may. */
  static SslProvider provider(TlsConfig.Provider wanted) {
    switch (wanted) {
      case JDK:
        return SslProvider.JDK;
      case OPENSSL:
        if (!OpenSsl.isAvailable()) {
          throw new IllegalStateException(
              "TlsConfig.Provider.OPENSSL needs netty-tcnative on the class path"
                  + " (io.netty:netty-tcnative-boringssl-static, the version of Netty's BOM), and"
                  + " it cannot be loaded: " + OpenSsl.unavailabilityCause(),
              OpenSsl.unavailabilityCause());
        }
        return SslProvider.OPENSSL;
      case AUTO:
      default:
        return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
    }
  }
}
