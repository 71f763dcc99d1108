package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.client.RpcxClient;
import io.rpcx.core.TlsConfig;
import io.rpcx.core.TlsConfig.Provider;
import io.rpcx.internal.testing.TestCertificates;
import io.rpcx.server.RpcxServer;
import java.net.Socket;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.ManagerFactoryParameters;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.TrustManagerFactorySpi;
import javax.net.ssl.X509ExtendedTrustManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The work of a TLS handshake runs off the network threads, on both sides and on both providers:
 * certificate checks that take a second (as a revocation lookup or a slow hardware key may) hold
 * up no call of the connections that are open on the same event loop. And the RPCX handshake has
 * its own timeout, counted from the end of the TLS handshake.
 */
@Timeout(60)
class TlsHandshakeTest {
  private static final long SLOW_CHECK_MILLIS = 1_000;

  @TempDir static Path directory;
  static TestCertificates.Authority authority;
  static TestCertificates.Leaf serverLeaf;
  static TestCertificates.Leaf clientLeaf;

  private final List<RpcxServer> servers = new ArrayList<>();

  @BeforeAll
  static void makeCertificates() throws Exception {
    TestCertificates certificates = new TestCertificates(directory);
    authority = certificates.authority("ca");
    serverLeaf = authority.issue("server", "127.0.0.1");
    clientLeaf = authority.issue("client");
  }

  @AfterEach
  void stopServers() {
    servers.forEach(server -> server.stop(Duration.ZERO));
  }

  /** Trusts the test authority, after {@code millis} of work for every check. */
  private static TrustManagerFactory slowTrust(long millis) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    store.setCertificateEntry("ca", authority.certificate);
    TrustManagerFactory real =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    real.init(store);
    X509ExtendedTrustManager trusting = (X509ExtendedTrustManager) real.getTrustManagers()[0];
    X509ExtendedTrustManager slow = new SlowTrustManager(trusting, millis);
    TrustManagerFactorySpi spi =
        new TrustManagerFactorySpi() {
          @Override
          protected void engineInit(KeyStore keyStore) {}

          @Override
          protected void engineInit(ManagerFactoryParameters parameters) {}

          @Override
          protected TrustManager[] engineGetTrustManagers() {
            return new TrustManager[] {slow};
          }
        };
    return new TrustManagerFactory(spi, real.getProvider(), real.getAlgorithm()) {};
  }

  private RpcxServer server(Provider provider, TrustManagerFactory clientTrust, int ioThreads) {
    TlsConfig.Builder tls =
        TlsConfig.server(serverLeaf.certificateChain, serverLeaf.privateKey).provider(provider);
    if (clientTrust != null) {
      tls.trust(clientTrust).requireClientCertificate();
    }
    RpcxServer server =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .ioThreads(ioThreads)
            .service(new EchoService.Impl())
            .service(new ControlledService.Impl())
            .tls(tls.build())
            .build()
            .start();
    servers.add(server);
    return server;
  }

  private static TlsConfig.Builder client(Provider provider) throws Exception {
    return TlsConfig.client()
        .trust(authority.certificateFile())
        .keyPair(clientLeaf.certificateChain, clientLeaf.privateKey)
        .provider(provider);
  }

  /** Calls {@code echo} in a loop until stopped, keeping the longest call. */
  private static final class OpenConnectionCalls implements AutoCloseable {
    final AtomicLong longestNanos = new AtomicLong();
    final AtomicBoolean stop = new AtomicBoolean();
    final Thread thread;

    OpenConnectionCalls(EchoService echo) {
      thread =
          new Thread(
              () -> {
                while (!stop.get()) {
                  long start = System.nanoTime();
                  echo.echo("open-connection-calls");
                  longestNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
                }
              },
              "open-connection-calls");
      thread.setDaemon(true);
      thread.start();
    }

    long longestMillis() {
      return TimeUnit.NANOSECONDS.toMillis(longestNanos.get());
    }

    @Override
    public void close() {
      stop.set(true);
      try {
        thread.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = Provider.class, names = {"JDK", "OPENSSL"})
  void slowCertificateChecksOnTheServerHoldUpNoCallOfItsOpenConnections(Provider provider)
      throws Exception {
    // One event loop: every connection of the server shares it.
    RpcxServer server = server(provider, slowTrust(SLOW_CHECK_MILLIS), 1);
    try (RpcxClient open =
        RpcxClient.builder().target("127.0.0.1", server.port()).tls(client(provider).build()).build()) {
      EchoService echo = open.create(EchoService.class);
      assertEquals("warm", echo.echo("warm"));
      List<RpcxClient> newcomers = new ArrayList<>();
      try (OpenConnectionCalls calls = new OpenConnectionCalls(echo)) {
        Thread.sleep(100);
        calls.longestNanos.set(0);
        List<CompletableFuture<String>> handshakes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
          RpcxClient newcomer =
              RpcxClient.builder()
                  .target("127.0.0.1", server.port())
                  .tls(client(provider).build())
                  .build();
          newcomers.add(newcomer);
          handshakes.add(newcomer.create(EchoService.class).echoAsync("new"));
        }
        for (CompletableFuture<String> handshake : handshakes) {
          assertEquals("new", handshake.get(30, TimeUnit.SECONDS));
        }
        assertTrue(
            calls.longestMillis() < SLOW_CHECK_MILLIS / 2,
            "a call of an open connection took " + calls.longestMillis() + " ms while three"
                + " handshakes each spent " + SLOW_CHECK_MILLIS + " ms checking a certificate");
      } finally {
        newcomers.forEach(RpcxClient::close);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = Provider.class, names = {"JDK", "OPENSSL"})
  void slowCertificateChecksOnTheClientHoldUpNoCallOfItsOpenConnections(Provider provider)
      throws Exception {
    RpcxServer first = server(provider, null, 2);
    RpcxServer second = server(provider, null, 2);
    TlsConfig tls =
        TlsConfig.client().trust(slowTrust(SLOW_CHECK_MILLIS)).provider(provider).build();
    // One event loop on the client: its connections to both servers share it.
    try (RpcxClient client =
        RpcxClient.builder()
            .targets(EchoService.class, "127.0.0.1:" + first.port())
            .targets(ControlledService.class, "127.0.0.1:" + second.port())
            .ioThreads(1)
            .defaultTimeout(Duration.ofSeconds(10))
            .tls(tls)
            .build()) {
      EchoService echo = client.create(EchoService.class);
      assertEquals("warm", echo.echo("warm"));
      try (OpenConnectionCalls calls = new OpenConnectionCalls(echo)) {
        Thread.sleep(100);
        calls.longestNanos.set(0);
        // A new connection, whose check of the second server's certificate takes a second.
        assertEquals(0, client.create(ControlledService.class).started());
        assertTrue(
            calls.longestMillis() < SLOW_CHECK_MILLIS / 2,
            "a call on the open connection took " + calls.longestMillis() + " ms while the"
                + " client spent " + SLOW_CHECK_MILLIS + " ms checking another server");
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = Provider.class, names = {"JDK", "OPENSSL"})
  void theRpcxHandshakeHasItsOwnTimeoutCountedFromTheEndOfTls(Provider provider)
      throws Exception {
    // The client spends 1.2 s checking the server's certificate, the server 1.2 s checking the
    // client's after the client is through: the server's preface comes 2.4 s after the connect,
    // 1.2 s after the client's TLS handshake. With a 2 s handshake timeout counted from the
    // connect, the connection failed.
    RpcxServer server = server(provider, slowTrust(1_200), 2);
    TlsConfig tls = client(provider).trust(slowTrust(1_200)).build();
    try (RpcxClient client =
        RpcxClient.builder()
            .target("127.0.0.1", server.port())
            .connectTimeout(Duration.ofSeconds(2))
            .defaultTimeout(Duration.ofSeconds(10))
            .tls(tls)
            .build()) {
      assertEquals("through", client.create(EchoService.class).echo("through"));
    }
  }

  /** Checks as {@code trusting} does, after {@code millis}. */
  private static final class SlowTrustManager extends X509ExtendedTrustManager {
    private final X509ExtendedTrustManager trusting;
    private final long millis;

    SlowTrustManager(X509ExtendedTrustManager trusting, long millis) {
      this.trusting = trusting;
      this.millis = millis;
    }

    private void work() {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      work();
      trusting.checkClientTrusted(chain, authType, socket);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      work();
      trusting.checkServerTrusted(chain, authType, socket);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      work();
      trusting.checkClientTrusted(chain, authType, engine);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      work();
      trusting.checkServerTrusted(chain, authType, engine);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      work();
      trusting.checkClientTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      work();
      trusting.checkServerTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return trusting.getAcceptedIssuers();
    }
  }
}
