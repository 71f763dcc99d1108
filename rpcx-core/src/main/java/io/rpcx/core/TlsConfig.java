package io.rpcx.core;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS settings of a client or a server: its own certificate and key, the certificates it trusts,
 * and whether the peer must present a certificate (mutual TLS). Immutable and thread-safe.
 *
 * <pre>{@code
 * // Server with mutual TLS
 * TlsConfig serverTls = TlsConfig.server(Path.of("server.crt"), Path.of("server.key"))
 *     .trust(Path.of("clients-ca.crt"))
 *     .requireClientCertificate()
 *     .build();
 * // Client presenting its own certificate
 * TlsConfig clientTls = TlsConfig.client()
 *     .trust(Path.of("ca.crt"))
 *     .keyPair(Path.of("client.crt"), Path.of("client.key"))
 *     .build();
 * }</pre>
 *
 * <p>Certificates are PEM files (a chain, leaf first); private keys are unencrypted PKCS#8 PEM files.
 * Key and trust managers may be given instead of files. A client verifies that the server's
 * certificate matches the host it connects to (a DNS name or IP address in its subject
 * alternative names) unless {@link Builder#verifyHostname(boolean)} turns that off. Protocols are
 * TLS 1.3 and 1.2.
 *
 * <p>TLS runs on OpenSSL (BoringSSL) when {@code io.netty:netty-tcnative-boringssl-static} is on
 * the class path, else on the JDK's provider ({@link Provider}). Either way the heavy work of a
 * handshake (key exchange, signatures, certificate checks) runs on a pool of its own, not on the
 * network threads: a burst of new connections does not hold up the calls of open ones.
 */
public final class TlsConfig {
  private final boolean server;
  private final Path certificateChain;
  private final Path privateKey;
  private final KeyManagerFactory keyManager;
  private final Path trustedCertificates;
  private final TrustManagerFactory trustManager;
  private final boolean requireClientCertificate;
  private final boolean verifyHostname;
  private final List<String> protocols;
  private final Provider provider;

  /** Which implementation of TLS to run on. */
  public enum Provider {
    /** OpenSSL when {@code netty-tcnative} is on the class path and loads, else the JDK's. */
    AUTO,
    /** The JDK's TLS provider ({@code SSLEngine}). */
    JDK,
    /**
     * OpenSSL through {@code netty-tcnative} ({@code io.netty:netty-tcnative-boringssl-static}):
     * handshakes several times cheaper than the JDK's; building a client or server fails, saying
     * why, if it cannot be loaded.
     */
    OPENSSL
  }

  private TlsConfig(Builder builder) {
    this.server = builder.server;
    this.certificateChain = builder.certificateChain;
    this.privateKey = builder.privateKey;
    this.keyManager = builder.keyManager;
    this.trustedCertificates = builder.trustedCertificates;
    this.trustManager = builder.trustManager;
    this.requireClientCertificate = builder.requireClientCertificate;
    this.verifyHostname = builder.verifyHostname;
    this.protocols = builder.protocols;
    this.provider = builder.provider;
  }

  /** Settings of a server presenting the certificate chain and private key of these PEM files. */
  public static Builder server(Path certificateChain, Path privateKey) {
    Builder builder = new Builder(true);
    builder.keyPair(certificateChain, privateKey);
    return builder;
  }

  /** Settings of a server presenting the key of {@code keyManager}. */
  public static Builder server(KeyManagerFactory keyManager) {
    Builder builder = new Builder(true);
    builder.keyManager = Objects.requireNonNull(keyManager, "keyManager");
    return builder;
  }

  /** Settings of a client; by default it trusts the JDK's trusted certificate authorities. */
  public static Builder client() {
    return new Builder(false);
  }

  public boolean isServer() {
    return server;
  }

  /** PEM certificate chain of this side, or {@code null}. */
  public Path certificateChain() {
    return certificateChain;
  }

  /** PEM PKCS#8 private key of this side, or {@code null}. */
  public Path privateKey() {
    return privateKey;
  }

  public KeyManagerFactory keyManager() {
    return keyManager;
  }

  /** PEM certificates this side trusts, or {@code null} for the JDK's or the trust manager's. */
  public Path trustedCertificates() {
    return trustedCertificates;
  }

  public TrustManagerFactory trustManager() {
    return trustManager;
  }

  /** For a server: whether clients must present a certificate the server trusts. */
  public boolean requireClientCertificate() {
    return requireClientCertificate;
  }

  /** For a client: whether the server certificate must match the host name or address. */
  public boolean verifyHostname() {
    return verifyHostname;
  }

  public List<String> protocols() {
    return protocols;
  }

  /** The implementation of TLS asked for; {@link Provider#AUTO} unless chosen. */
  public Provider provider() {
    return provider;
  }

  /** Builds a {@link TlsConfig}. Not thread-safe. */
  public static final class Builder {
    private final boolean server;
    private Path certificateChain;
    private Path privateKey;
    private KeyManagerFactory keyManager;
    private Path trustedCertificates;
    private TrustManagerFactory trustManager;
    private boolean requireClientCertificate;
    private boolean verifyHostname = true;
    private List<String> protocols = List.of("TLSv1.3", "TLSv1.2");
    private Provider provider = Provider.AUTO;

    private Builder(boolean server) {
      this.server = server;
    }

    /** This side's certificate chain and PKCS#8 private key (for a client: for mutual TLS). */
    public Builder keyPair(Path certificateChain, Path privateKey) {
      this.certificateChain = readable(certificateChain, "certificateChain");
      this.privateKey = readable(privateKey, "privateKey");
      this.keyManager = null;
      return this;
    }

    /**
     * This side's key and certificate chain, from {@code keyManager} (a key store, a Spring Boot
     * SSL bundle); for a client: for mutual TLS.
     */
    public Builder keyManager(KeyManagerFactory keyManager) {
      this.keyManager = Objects.requireNonNull(keyManager, "keyManager");
      this.certificateChain = null;
      this.privateKey = null;
      return this;
    }

    /** Trusts the certificates of this PEM file (instead of the JDK's trusted authorities). */
    public Builder trust(Path trustedCertificates) {
      this.trustedCertificates = readable(trustedCertificates, "trustedCertificates");
      this.trustManager = null;
      return this;
    }

    /** Trusts what {@code trustManager} trusts. */
    public Builder trust(TrustManagerFactory trustManager) {
      this.trustManager = Objects.requireNonNull(trustManager, "trustManager");
      this.trustedCertificates = null;
      return this;
    }

    /** For a server: clients must present a certificate that the trusted certificates sign. */
    public Builder requireClientCertificate() {
      if (!server) {
        throw new IllegalStateException("requireClientCertificate() is a server setting");
      }
      this.requireClientCertificate = true;
      return this;
    }

    /** For a client: whether to check the server certificate against the host; default true. */
    public Builder verifyHostname(boolean verifyHostname) {
      this.verifyHostname = verifyHostname;
      return this;
    }

    /** The TLS protocol versions to enable; default TLSv1.3 and TLSv1.2. */
    public Builder protocols(String... protocols) {
      if (protocols.length == 0) {
        throw new InvalidSettingException(
            "protocols", List.of(), "none given", "at least one");
      }
      this.protocols = List.of(protocols);
      return this;
    }

    /**
     * Which implementation of TLS to run on; default {@link Provider#AUTO}: OpenSSL when {@code
     * netty-tcnative} is on the class path, else the JDK's.
     */
    public Builder provider(Provider provider) {
      this.provider = Objects.requireNonNull(provider, "provider");
      return this;
    }

    public TlsConfig build() {
      if (server && certificateChain == null && keyManager == null) {
        throw new IllegalStateException("a TLS server needs a certificate and a private key");
      }
      if (requireClientCertificate && trustedCertificates == null && trustManager == null) {
        throw new IllegalStateException(
            "requireClientCertificate() needs trust(...): which authority signs client certificates?");
      }
      return new TlsConfig(this);
    }

    private static Path readable(Path path, String name) {
      Objects.requireNonNull(path, name);
      if (!Files.isReadable(path)) {
        throw new InvalidSettingException(name, path, "a readable file");
      }
      return path;
    }
  }
}
