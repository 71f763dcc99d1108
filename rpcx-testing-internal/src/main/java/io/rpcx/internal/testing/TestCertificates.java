package io.rpcx.internal.testing;

import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificate authorities and certificates made at test time, written as PEM files. No private
 * key is ever committed.
 */
public final class TestCertificates {
  private static final AtomicLong SERIALS = new AtomicLong(1);

  private final Path directory;

  /** Certificates written as files into {@code directory}. */
  public TestCertificates(Path directory) {
    this.directory = directory;
  }

  /** A certificate authority: its key and self-signed certificate. */
  public final class Authority {
    /** The authority's common name. */
    public final String name;
    /** Its key pair. */
    public final KeyPair keys;
    /** Its self-signed certificate. */
    public final X509Certificate certificate;

    private Authority(String name) throws Exception {
      this.name = name;
      this.keys = newKeys();
      X500Name subject = new X500Name("CN=" + name);
      X509v3CertificateBuilder builder = builder(subject, subject, keys);
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      builder.addExtension(
          Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      this.certificate = sign(builder, keys.getPrivate());
    }

    /** This authority's certificate as a PEM file, to trust. */
    public Path certificateFile() throws IOException {
      return write(name + "-ca.crt", pem(certificate));
    }

    /** A leaf certificate signed by this authority, valid for {@code names} (DNS or IP). */
    public Leaf issue(String commonName, String... names) throws Exception {
      KeyPair leafKeys = newKeys();
      X509v3CertificateBuilder builder =
          builder(new X500Name("CN=" + name), new X500Name("CN=" + commonName), leafKeys);
      GeneralName[] alternatives = new GeneralName[names.length];
      for (int i = 0; i < names.length; i++) {
        alternatives[i] =
            names[i].matches("[0-9.]+")
                ? new GeneralName(GeneralName.iPAddress, names[i])
                : new GeneralName(GeneralName.dNSName, names[i]);
      }
      if (names.length > 0) {
        builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(alternatives));
      }
      builder.addExtension(
          Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
      X509Certificate leaf = sign(builder, keys.getPrivate());
      Path certificateFile = write(commonName + ".crt", pem(leaf) + pem(certificate));
      Path keyFile = write(commonName + ".key", pem(leafKeys.getPrivate()));
      return new Leaf(certificateFile, keyFile);
    }
  }

  /** A leaf certificate (chain) and its PKCS#8 key, as PEM files. */
  public static final class Leaf {
    /** The certificate and its authority's, as PEM. */
    public final Path certificateChain;
    /** The PKCS#8 private key, as PEM. */
    public final Path privateKey;

    Leaf(Path certificateChain, Path privateKey) {
      this.certificateChain = certificateChain;
      this.privateKey = privateKey;
    }
  }

  /** A new certificate authority named {@code name}. */
  public Authority authority(String name) throws Exception {
    return new Authority(name);
  }

  private static KeyPair newKeys() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(256);
    return generator.generateKeyPair();
  }

  private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys) {
    Instant now = Instant.now();
    return new JcaX509v3CertificateBuilder(
        issuer,
        BigInteger.valueOf(SERIALS.getAndIncrement()),
        Date.from(now.minus(1, ChronoUnit.HOURS)),
        Date.from(now.plus(1, ChronoUnit.DAYS)),
        subject,
        keys.getPublic());
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey issuerKey)
      throws Exception {
    ContentSigner signer = new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey);
    return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
  }

  private static String pem(Object object) throws IOException {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
      if (object instanceof PrivateKey) {
        writer.writeObject(new org.bouncycastle.openssl.jcajce.JcaPKCS8Generator((PrivateKey) object, null));
      } else {
        writer.writeObject(object);
      }
    }
    return text.toString();
  }

  private Path write(String name, String content) throws IOException {
    Path file = directory.resolve(name);
    try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.US_ASCII)) {
      writer.write(content);
    }
    return file;
  }
}
