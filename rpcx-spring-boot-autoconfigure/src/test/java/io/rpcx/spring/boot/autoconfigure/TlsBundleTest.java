package io.rpcx.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rpcx.core.UnavailableException;
import io.rpcx.spring.boot.autoconfigure.greeter.Greeter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * TLS through Spring Boot SSL bundles: the server's key from a PKCS#12 key store (a JKS bundle),
 * the client's trust from a PEM certificate (a PEM bundle). The key pair is made at test time by
 * the JDK's keytool; none is committed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsBundleTest {
  @TempDir static Path directory;

  @BeforeAll
  static void makeTheServersKey() throws Exception {
    keytool(
        "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1",
        "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2",
        "-keystore", directory.resolve("server.p12").toString(), "-storetype", "PKCS12",
        "-storepass", "changeit", "-keypass", "changeit");
    keytool(
        "-exportcert", "-rfc", "-alias", "server",
        "-keystore", directory.resolve("server.p12").toString(), "-storepass", "changeit",
        "-file", directory.resolve("server.crt").toString());
  }

  @Test
  void callsOverTlsFromBundles() {
    try (ConfigurableApplicationContext server =
            Apps.server(
                "spring.ssl.bundle.jks.rpcx-server.keystore.location=file:"
                    + directory.resolve("server.p12"),
                "spring.ssl.bundle.jks.rpcx-server.keystore.password=changeit",
                "spring.ssl.bundle.jks.rpcx-server.keystore.type=PKCS12",
                "rpcx.server.ssl.bundle=rpcx-server");
        ConfigurableApplicationContext client =
            Apps.client(
                Apps.port(server),
                "spring.ssl.bundle.pem.rpcx-client.truststore.certificate=file:"
                    + directory.resolve("server.crt"),
                "rpcx.client.ssl.bundle=rpcx-client");
        ConfigurableApplicationContext plain =
            Apps.client(Apps.port(server), "rpcx.client.connect-timeout=2s")) {
      assertEquals("Hello, Ada", client.getBean(Greeter.class).greet("Ada"));
      assertThrows(UnavailableException.class, () -> plain.getBean(Greeter.class).greet("Ada"));
    }
  }

  private static void keytool(String... arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(arguments));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException("keytool failed: " + output);
    }
  }
}
