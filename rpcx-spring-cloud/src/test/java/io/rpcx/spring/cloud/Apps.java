package io.rpcx.spring.cloud;

import io.rpcx.spring.boot.EnableRpcxClients;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cloud.netflix.eureka.server.EnableEurekaServer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;

/** The applications of the tests, each started as a user's main method would. */
final class Apps {
  static {
    // Logging as logback-test.xml says, which Spring Boot would reset in every context it starts
    // (and with it the appenders of the tests' LogCapture).
    System.setProperty("org.springframework.boot.logging.LoggingSystem", "none");
  }

  /** Tomcat logs through java.util.logging, which nothing bridges then: kept to warnings. */
  private static final java.util.logging.Logger TOMCAT = java.util.logging.Logger.getLogger("org.apache");

  static {
    TOMCAT.setLevel(java.util.logging.Level.WARNING);
  }

  private Apps() {}

  /** A Spring Cloud Netflix Eureka server, on a free port of 127.0.0.1. */
  @SpringBootConfiguration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  @EnableEurekaServer
  static class EurekaServer {}

  /** A Spring Boot application with a web server and an RPCX server publishing the greeter. */
  @SpringBootConfiguration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  @Import(Greeter.Impl.class)
  static class GreeterServer {}

  /** A Spring Boot application whose RPCX client calls the greeter. */
  @SpringBootConfiguration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  @EnableRpcxClients(types = Greeter.class)
  static class GreeterClient {}

  /** What every application of the tests is started with: quiet, on 127.0.0.1. */
  static final String[] QUIET = {
    "spring.main.banner-mode=off",
    "logging.level.root=WARN",
    // Eureka's Jersey clients complain when their context closes under their cleaner thread.
    "logging.level.com.netflix.discovery.shared.transport.jersey=OFF",
  };

  static ConfigurableApplicationContext eureka() throws java.io.IOException {
    int port;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    return new SpringApplicationBuilder(EurekaServer.class)
        .web(WebApplicationType.SERVLET)
        .properties(QUIET)
        .properties(
            "server.port=" + port,
            // Its own URL: a Eureka server replicates to the peers listed, none but itself here.
            "eureka.client.service-url.defaultZone=http://127.0.0.1:" + port + "/eureka/",
            "server.address=127.0.0.1",
            "spring.application.name=eureka",
            "eureka.instance.hostname=127.0.0.1",
            "eureka.client.register-with-eureka=false",
            "eureka.client.fetch-registry=false",
            "eureka.server.enable-self-preservation=false",
            "eureka.server.use-read-only-response-cache=false",
            "eureka.server.response-cache-update-interval-ms=200",
            "eureka.server.eviction-interval-timer-in-ms=1000",
            "rpcx.client.spring-cloud.enabled=false")
        .run();
  }

  /** The URL Eureka clients register with. */
  static String eurekaUrl(ConfigurableApplicationContext eureka) {
    return "http://127.0.0.1:" + eureka.getEnvironment().getRequiredProperty("local.server.port")
        + "/eureka/";
  }

  /** Properties of a Eureka client that registers (or not) and follows the registry quickly. */
  static String[] eurekaClient(String url, boolean register) {
    return new String[] {
      "eureka.client.service-url.defaultZone=" + url,
      // The Eureka server on this test class path brings Jersey: a user's client uses RestClient.
      "eureka.client.jersey.enabled=false",
      "eureka.client.register-with-eureka=" + register,
      "eureka.client.registry-fetch-interval-seconds=1",
      "eureka.client.instance-info-replication-interval-seconds=1",
      "eureka.client.initial-instance-info-replication-interval-seconds=1",
      "eureka.instance.lease-renewal-interval-in-seconds=1",
      "eureka.instance.hostname=127.0.0.1",
      "eureka.instance.ip-address=127.0.0.1",
      "eureka.instance.prefer-ip-address=true",
    };
  }

  static ConfigurableApplicationContext run(
      Class<?> application, WebApplicationType web, String[] common, String... properties) {
    String[] all = new String[common.length + properties.length];
    System.arraycopy(common, 0, all, 0, common.length);
    System.arraycopy(properties, 0, all, common.length, properties.length);
    return new SpringApplicationBuilder(application).web(web).properties(QUIET).properties(all).run();
  }
}
