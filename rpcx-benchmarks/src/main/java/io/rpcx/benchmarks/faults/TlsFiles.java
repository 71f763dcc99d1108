package io.rpcx.benchmarks.faults;

import io.rpcx.core.TlsConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Self-signed keys and certificates for the TLS tools, made by the JDK's {@code keytool} in a
 * folder: {@code server.p12} (for 127.0.0.1 and localhost) and {@code client.p12} (for mutual
 * TLS), each with its certificate as PEM ({@code server.crt}, {@code client.crt}). Nothing private
 * is kept beyond the run.
 */
final class TlsFiles {
  static final char[] PASSWORD = "rpcx-tools".toCharArray();

  private final Path folder;

  private TlsFiles(Path folder) {
    this.folder = folder;
  }

  /** The files of an earlier {@link #create} in {@code folder}. */
  static TlsFiles in(Path folder) {
    return new TlsFiles(folder);
  }

  /** Makes a server and a client key pair of {@code keyAlgorithm} (RSA: 2048 bits, EC: P-256). */
  static TlsFiles create(Path folder, String keyAlgorithm) throws IOException, InterruptedException {
    Files.createDirectories(folder);
    TlsFiles files = new TlsFiles(folder);
    files.keyPair("server", keyAlgorithm);
    files.keyPair("client", keyAlgorithm);
    return files;
  }

  Path folder() {
    return folder;
  }

  private void keyPair(String name, String keyAlgorithm) throws IOException, InterruptedException {
    List<String> algorithm =
        keyAlgorithm.equals("EC")
            ? List.of("-keyalg", "EC", "-groupname", "secp256r1")
            : List.of("-keyalg", "RSA", "-keysize", "2048");
    List<String> generate = new ArrayList<>(List.of(keytool(), "-genkeypair", "-alias", name));
    generate.addAll(algorithm);
    generate.addAll(
        List.of("-dname", "CN=" + name, "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity",
            "2", "-storetype", "PKCS12", "-keystore", keyStore(name).toString(), "-storepass",
            new String(PASSWORD), "-keypass", new String(PASSWORD)));
    run(generate);
    run(List.of(keytool(), "-exportcert", "-rfc", "-alias", name, "-keystore",
        keyStore(name).toString(), "-storepass", new String(PASSWORD), "-file",
        certificate(name).toString()));
  }

  private static String keytool() {
    return Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
  }

  private static void run(List<String> command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    if (process.waitFor() != 0) {
      throw new IOException(String.join(" ", command) + " failed: " + output);
    }
  }

  Path keyStore(String name) {
    return folder.resolve(name + ".p12");
  }

  Path certificate(String name) {
    return folder.resolve(name + ".crt");
  }

  /** The key manager of {@code name}'s key store. */
  KeyManagerFactory keyManager(String name) throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keyStore(name))) {
      store.load(in, PASSWORD);
    }
    KeyManagerFactory factory =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    factory.init(store, PASSWORD);
    return factory;
  }

  /**
   * The server's settings on {@code provider}; with {@code mutual}, clients must present the
   * client certificate.
   */
  TlsConfig server(boolean mutual, TlsConfig.Provider provider)
      throws IOException, GeneralSecurityException {
    TlsConfig.Builder builder = TlsConfig.server(keyManager("server")).provider(provider);
    if (mutual) {
      builder.trust(certificate("client")).requireClientCertificate();
    }
    return builder.build();
  }

  /**
   * A client's settings on {@code provider}, trusting the server; with {@code mutual}, presenting
   * its certificate.
   */
  TlsConfig client(boolean mutual, TlsConfig.Provider provider)
      throws IOException, GeneralSecurityException {
    TlsConfig.Builder builder =
        TlsConfig.client().trust(certificate("server")).provider(provider);
    if (mutual) {
      builder.keyManager(keyManager("client"));
    }
    return builder.build();
  }

  /** The JDK's TLS context of a raw client, as {@link #client} (no host name check). */
  SSLContext clientContext(boolean mutual) throws IOException, GeneralSecurityException {
    KeyStore trusted = KeyStore.getInstance("PKCS12");
    trusted.load(null, null);
    try (InputStream in = Files.newInputStream(certificate("server"))) {
      trusted.setCertificateEntry(
          "server",
          java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trusted);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(
        mutual ? keyManager("client").getKeyManagers() : null, trust.getTrustManagers(), null);
    return context;
  }
}
