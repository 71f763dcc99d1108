package io.rpcx.spring.boot.autoconfigure;

import io.rpcx.core.TlsConfig;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.ssl.SslManagerBundle;

/** RPCX's TLS settings from a Spring Boot SSL bundle ({@code spring.ssl.bundle.*}). */
final class SslBundleTls {
  private SslBundleTls() {}

  /** The server settings of {@code ssl}, or {@code null} if it names no bundle. */
  static TlsConfig server(
      RpcxProperties.ServerSsl ssl, ObjectProvider<SslBundles> bundles, PropertyTarget target) {
    SslBundle bundle = bundle(ssl.getBundle(), bundles, target);
    if (bundle == null) {
      return null;
    }
    SslManagerBundle managers = bundle.getManagers();
    TlsConfig.Builder builder = TlsConfig.server(managers.getKeyManagerFactory());
    if (bundle.getStores().getTrustStore() != null) {
      builder.trust(managers.getTrustManagerFactory());
    }
    if (ssl.isClientAuth()) {
      if (bundle.getStores().getTrustStore() == null) {
        throw target.invalid(
            "ssl.client-auth",
            true,
            "false, or a bundle in rpcx.server.ssl.bundle with a trust store of the authorities"
                + " that sign client certificates",
            null);
      }
      builder.requireClientCertificate();
    }
    return builder.build();
  }

  /** The client settings of {@code ssl}, or {@code null} if it names no bundle. */
  static TlsConfig client(
      RpcxProperties.ClientSsl ssl, ObjectProvider<SslBundles> bundles, PropertyTarget target) {
    SslBundle bundle = bundle(ssl.getBundle(), bundles, target);
    if (bundle == null) {
      return null;
    }
    SslManagerBundle managers = bundle.getManagers();
    TlsConfig.Builder builder = TlsConfig.client();
    if (bundle.getStores().getTrustStore() != null) {
      builder.trust(managers.getTrustManagerFactory());
    }
    if (bundle.getStores().getKeyStore() != null) {
      builder.keyManager(managers.getKeyManagerFactory());
    }
    if (ssl.getVerifyHostname() != null) {
      builder.verifyHostname(ssl.getVerifyHostname());
    }
    return builder.build();
  }

  private static SslBundle bundle(
      String name, ObjectProvider<SslBundles> bundles, PropertyTarget target) {
    if (name == null || name.isBlank()) {
      return null;
    }
    SslBundles available = bundles.getIfAvailable();
    try {
      if (available == null) {
        throw new NoSuchSslBundleException(name, "no SSL bundle is configured");
      }
      return available.getBundle(name);
    } catch (NoSuchSslBundleException e) {
      throw target.invalid(
          "ssl.bundle",
          name,
          "the name of an SSL bundle configured under spring.ssl.bundle.jks or"
              + " spring.ssl.bundle.pem",
          e);
    }
  }
}
