package io.rpcx.cli;

import io.rpcx.client.RpcxClient;
import io.rpcx.core.TlsConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Option;

/** The options every command that talks to a server shares: TLS, credentials, metadata, timeout. */
final class ConnectionOptions {
  /**
   * How long the look-ups of the server's reflection service (the service's description, its
   * {@code .proto} files) may take at least: they are rpcx's own calls, not the user's, so a short
   * {@code --timeout} meant for the user's calls, or a server slowed by a load test, must not fail
   * them.
   */
  static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(30);

  @Option(names = "--tls", description = "Connect with TLS (implied by --cacert, --cert).")
  boolean tls;

  @Option(
      names = "--cacert",
      paramLabel = "FILE",
      description = "PEM certificates to trust instead of the JVM's trust store.")
  Path caCertificates;

  @Option(names = "--cert", paramLabel = "FILE", description = "PEM client certificate chain (with --key).")
  Path certificate;

  @Option(names = "--key", paramLabel = "FILE", description = "PEM private key of --cert.")
  Path privateKey;

  @Option(
      names = "--token",
      paramLabel = "TOKEN",
      description = "Sends 'authorization: Bearer TOKEN' with every call.")
  String token;

  @Option(
      names = {"-H", "--header"},
      paramLabel = "KEY=VALUE",
      description = "Metadata sent with every call; repeatable.")
  Map<String, String> metadata = new LinkedHashMap<>();

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      defaultValue = "10s",
      converter = Durations.class,
      description = "Timeout of each call of the method, such as 500ms, 10s, 2m (default:"
          + " ${DEFAULT-VALUE}). rpcx's own look-ups of the server's reflection service wait 30 s,"
          + " or longer if this is longer.")
  Duration timeout;

  /**
   * A client sending every call to {@code address}, configured by these options.
   *
   * @throws UserError if an option's value cannot be used
   */
  RpcxClient connect(Address address, int ioThreads) {
    RpcxClient.Builder builder =
        RpcxClient.builder()
            .target(address.host(), address.port())
            // The user's calls carry --timeout themselves (RawCall.timeout); the client's default
            // is for the look-ups of the reflection service.
            .defaultTimeout(timeout.compareTo(LOOKUP_TIMEOUT) > 0 ? timeout : LOOKUP_TIMEOUT)
            .connectTimeout(timeout.compareTo(Duration.ofSeconds(5)) < 0 ? timeout : Duration.ofSeconds(5))
            .maxAttempts(1)
            .ioThreads(ioThreads);
    if (tls || caCertificates != null || certificate != null || privateKey != null) {
      TlsConfig.Builder config = TlsConfig.client();
      if (caCertificates != null) {
        config.trust(readable(caCertificates, "--cacert"));
      }
      if ((certificate == null) != (privateKey == null)) {
        throw UserError.usage(
            certificate == null ? "--key needs --cert (the certificate chain of the key)"
                : "--cert needs --key (the private key of the certificate)");
      }
      if (certificate != null) {
        config.keyPair(readable(certificate, "--cert"), readable(privateKey, "--key"));
      }
      try {
        builder.tls(config.build());
      } catch (RuntimeException e) {
        throw UserError.usage("cannot use the TLS files: " + e.getMessage());
      }
    }
    try {
      for (Map.Entry<String, String> entry : metadata.entrySet()) {
        builder.metadata(entry.getKey().toLowerCase(Locale.ROOT), entry.getValue());
      }
    } catch (IllegalArgumentException e) {
      throw UserError.usage("-H: " + e.getMessage());
    }
    if (token != null) {
      try {
        builder.bearerToken(token);
      } catch (IllegalArgumentException e) {
        throw UserError.usage("--token: " + e.getMessage());
      }
    }
    try {
      return builder.build();
    } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
      // The TLS files are read and checked when the client builds its TLS context.
      throw UserError.usage("cannot use the TLS files: " + e.getMessage());
    }
  }

  private static Path readable(Path file, String option) {
    if (!Files.isReadable(file)) {
      throw UserError.usage(option + ": cannot read " + file + " (expected: a PEM file)");
    }
    return file;
  }
}
