package io.rpcx.cli;

import io.rpcx.internal.testing.TestCertificates;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rpcx.core.TlsConfig;
import io.rpcx.server.RpcxServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code --tls}, {@code --cacert}, {@code --cert} and {@code --key} against a mutual-TLS server. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsTest {
  @TempDir static Path directory;
  private static RpcxServer server;
  private static String address;
  private static Path caFile;
  private static TestCertificates.Leaf client;

  @BeforeAll
  static void start() throws Exception {
    TestCertificates certificates = new TestCertificates(directory);
    TestCertificates.Authority authority = certificates.authority("test");
    caFile = authority.certificateFile();
    TestCertificates.Leaf serverCertificate = authority.issue("server", "localhost", "127.0.0.1");
    client = authority.issue("client");
    server =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .port(0)
            .service(new Shapes.Impl())
            .reflection(true)
            .tls(
                TlsConfig.server(serverCertificate.certificateChain, serverCertificate.privateKey)
                    .trust(caFile)
                    .requireClientCertificate()
                    .build())
            .build()
            .start();
    address = "127.0.0.1:" + server.port();
  }

  @AfterAll
  static void stop() {
    server.stop(Duration.ofSeconds(5));
  }

  @Test
  void aClientWithTheRightCertificatesCalls() {
    Cli.Run run =
        Cli.run("call", address, "shapes/add", "[1, 2]", "--cacert", caFile.toString(),
            "--cert", client.certificateChain.toString(), "--key", client.privateKey.toString());
    assertEquals(new Cli.Run(0, "3\n", ""), run);
  }

  @Test
  void aRefusedHandshakeIsAConnectionFailure() {
    Cli.Run withoutCertificate =
        Cli.run("list", address, "--cacert", caFile.toString(), "--timeout", "3s");
    assertEquals(3, withoutCertificate.exit(), withoutCertificate::toString);
    assertEquals(
        "cannot connect to " + address + ": TLS with " + address + " failed: Received fatal alert:"
            + " bad_certificate (the server requires a client certificate it trusts: mutual TLS"
            + " needs TlsConfig.client().keyPair(...))\n",
        withoutCertificate.err());

    Cli.Run plain = Cli.run("list", address, "--timeout", "3s");
    assertEquals(3, plain.exit(), plain::toString);
    assertEquals(
        "cannot connect to " + address + ": " + address + " closed the connection before"
            + " completing the RPCX handshake (is it an RPCX server? does it require TLS?)\n",
        plain.err());
  }

  @Test
  void tlsFilesThatCannotBeReadOrDoNotPairAreUsageErrors() {
    assertEquals(
        new Cli.Run(2, "", "--cacert: cannot read /no/ca.pem (expected: a PEM file)\n"),
        Cli.run("list", address, "--cacert", "/no/ca.pem"));
    assertEquals(
        new Cli.Run(2, "", "--cert needs --key (the private key of the certificate)\n"),
        Cli.run("list", address, "--cert", client.certificateChain.toString()));
  }

  @Test
  void aFileThatIsNoCertificateIsAUsageErrorNotACrash(@org.junit.jupiter.api.io.TempDir java.nio.file.Path directory)
      throws Exception {
    java.nio.file.Path notPem = java.nio.file.Files.writeString(directory.resolve("ca.pem"), "not a certificate\n");
    Cli.Run run = Cli.run("list", address, "--cacert", notPem.toString());
    assertEquals(2, run.exit(), run::toString);
    assertEquals("", run.out());
    org.junit.jupiter.api.Assertions.assertTrue(
        run.err().startsWith("cannot use the TLS files: ") && run.err().indexOf('\n') == run.err().length() - 1,
        run::toString);
  }
}
