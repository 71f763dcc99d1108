package io.rpcx.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ch.qos.logback.classic.Level;
import io.rpcx.core.UnavailableException;
import io.rpcx.internal.testing.LogCapture;
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
 * the client's trust from a PEM certificate (a PEM bundle); and mutual TLS, the client's key from
 * its bundle's key store. The key pairs are made at test time by the JDK's keytool; none is
 * committed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsBundleTest {
  @TempDir static Path directory;

  @BeforeAll
  static void makeTheKeys() throws Exception {
    for (String side : new String[] {"server", "client"}) {
      keytool(
          "-genkeypair", "-alias", side, "-keyalg", "EC", "-groupname", "secp256r1",
          "-dname", "CN=" + (side.equals("server") ? "localhost" : "rpcx-client"),
          "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2",
          "-keystore", directory.resolve(side + ".p12").toString(), "-storetype", "PKCS12",
          "-storepass", "changeit", "-keypass", "changeit");
      keytool(
          "-exportcert", "-rfc", "-alias", side,
          "-keystore", directory.resolve(side + ".p12").toString(), "-storepass", "changeit",
          "-file", directory.resolve(side + ".crt").toString());
    }
  }

  @Test
  void mutualTlsFromBundles() throws InterruptedException {
    try (ConfigurableApplicationContext server =
            Apps.server(
                properties(
                    store("rpcx-server", "keystore", "server.p12"),
                    store("rpcx-server", "truststore", "client.p12"),
                    "rpcx.server.ssl.bundle=rpcx-server",
                    "rpcx.server.ssl.client-auth=true"));
        ConfigurableApplicationContext withKey =
            Apps.client(
                Apps.port(server),
                properties(
                    store("rpcx-client", "keystore", "client.p12"),
                    store("rpcx-client", "truststore", "server.p12"),
                    "rpcx.client.ssl.bundle=rpcx-client"));
        ConfigurableApplicationContext withoutKey =
            Apps.client(
                Apps.port(server),
                trustingTheServer(),
                "rpcx.client.ssl.bundle=rpcx-client",
                "rpcx.client.connect-timeout=2s")) {
      assertEquals("Hello, Ada", withKey.getBean(Greeter.class).greet("Ada"));
      try (LogCapture logs = LogCapture.of("io.rpcx")) {
        assertThrows(
            UnavailableException.class, () -> withoutKey.getBean(Greeter.class).greet("Ada"));
        logs.assertMatching(
            Level.WARN,
            "WARN Closing connection from /127\\.0\\.0\\.1:\\d+: TLS failed: Empty client"
                + " certificate chain",
            "WARN Closing connection to 127\\.0\\.0\\.1:\\d+: TLS failed: Received fatal alert:"
                + " bad_certificate \\(the server requires a client certificate it trusts.*");
      }
    }
  }

  @Test
  void callsOverTlsFromBundles() throws InterruptedException {
    try (ConfigurableApplicationContext server =
            Apps.server(
                properties(
                    store("rpcx-server", "keystore", "server.p12"),
                    "rpcx.server.ssl.bundle=rpcx-server"));
        ConfigurableApplicationContext client =
            Apps.client(
                Apps.port(server), trustingTheServer(), "rpcx.client.ssl.bundle=rpcx-client");
        ConfigurableApplicationContext plain =
            Apps.client(Apps.port(server), "rpcx.client.connect-timeout=2s")) {
      assertEquals("Hello, Ada", client.getBean(Greeter.class).greet("Ada"));
      try (LogCapture logs = LogCapture.of("io.rpcx")) {
        assertThrows(UnavailableException.class, () -> plain.getBean(Greeter.class).greet("Ada"));
        logs.assertMatching(
            Level.WARN,
            "WARN Closing connection from /127\\.0\\.0\\.1:\\d+: TLS failed: the client speaks RPCX"
                + " without TLS \\(a client with no TlsConfig\\), and this port requires TLS \\(not"
                + " an SSL/TLS record: 5250435800010000\\)");
      }
    }
  }

  /** A JKS bundle's key store or trust store: the PKCS#12 file {@code file} of this test. */
  private static String[] store(String bundle, String store, String file) {
    String prefix = "spring.ssl.bundle.jks." + bundle + "." + store + ".";
    return new String[] {
      prefix + "location=file:" + directory.resolve(file),
      prefix + "password=changeit",
      prefix + "type=PKCS12"
    };
  }

  /** A PEM bundle {@code rpcx-client} that trusts the server's certificate. */
  private static String trustingTheServer() {
    return "spring.ssl.bundle.pem.rpcx-client.truststore.certificate=file:"
        + directory.resolve("server.crt");
  }

  /** The properties of {@code parts}, each a property or an array of them, in order. */
  private static String[] properties(Object... parts) {
    List<String> all = new ArrayList<>();
    for (Object part : parts) {
      if (part instanceof String[] many) {
        all.addAll(List.of(many));
      } else {
        all.add((String) part);
      }
    }
    return all.toArray(new String[0]);
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
