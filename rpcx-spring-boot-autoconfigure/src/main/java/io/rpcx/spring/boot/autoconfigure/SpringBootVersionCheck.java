package io.rpcx.spring.boot.autoconfigure;

import io.rpcx.core.UnsupportedRuntimeException;
import org.springframework.boot.SpringBootVersion;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Fails the start of an application on a Spring Boot this starter is not built for, before any of
 * its auto-configuration is loaded (which would otherwise fail on a missing class that names
 * neither). Uses only API that Spring Boot 3 has too, so that it runs there to say so.
 */
final class SpringBootVersionCheck
    implements ApplicationContextInitializer<ConfigurableApplicationContext> {
  /** The oldest Spring Boot the starter runs on, and the major versions up to the newest. */
  static final int OLDEST_MAJOR = 4;

  static final String SUPPORTED = "4.0 or newer (up to 4.x)";

  /** Made by Spring Boot, from {@code META-INF/spring.factories}. */
  SpringBootVersionCheck() {}

  @Override
  public void initialize(ConfigurableApplicationContext context) {
    check(SpringBootVersion.getVersion());
  }

  /** Fails if {@code version} (null if unknown) is not a supported Spring Boot. */
  static void check(String version) {
    if (version == null) {
      return; // repackaged without its manifest: nothing to tell
    }
    int major;
    try {
      major = Integer.parseInt(version.substring(0, version.indexOf('.')));
    } catch (RuntimeException e) {
      return;
    }
    if (major != OLDEST_MAJOR) {
      throw new UnsupportedRuntimeException(
          "Spring Boot",
          version,
          SUPPORTED,
          "Use rpcx-spring-boot-starter with Spring Boot 4 (its spring-boot-starter-parent or"
              + " spring-boot-dependencies 4.x), or, on Spring Boot 3, build the RpcxClient and"
              + " RpcxServer beans yourself with rpcx-client and rpcx-server, setting the"
              + " netty.version property to a Netty 4.2 release.");
    }
  }
}
