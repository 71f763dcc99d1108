package io.rpcx.spring.boot.autoconfigure;

import io.rpcx.spring.boot.autoconfigure.greeter.ClientApp;
import io.rpcx.spring.boot.autoconfigure.greeter.ServerApp;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** Starts the test applications as a user's main method would, without a web server. */
final class Apps {
  private Apps() {}

  /** The server application on a free port, with {@code properties}. */
  static ConfigurableApplicationContext server(String... properties) {
    return run(ServerApp.class, concat("rpcx.server.port=0", properties));
  }

  /** The client application calling the server on {@code port}, with {@code properties}. */
  static ConfigurableApplicationContext client(int port, String... properties) {
    return run(ClientApp.class, concat("rpcx.client.target=127.0.0.1:" + port, properties));
  }

  static ConfigurableApplicationContext run(Class<?> application, String... properties) {
    return run(new Class<?>[] {application}, properties);
  }

  /** An application made of {@code sources} (the application, then test beans), with {@code properties}. */
  static ConfigurableApplicationContext run(Class<?>[] sources, String... properties) {
    return new SpringApplicationBuilder(sources)
        .web(WebApplicationType.NONE)
        .properties(properties)
        .run();
  }

  /** The port the server of {@code context} listens on, as it published it. */
  static int port(ConfigurableApplicationContext context) {
    return context.getEnvironment().getRequiredProperty("local.rpcx.server.port", Integer.class);
  }

  private static String[] concat(String first, String[] rest) {
    String[] all = new String[rest.length + 1];
    all[0] = first;
    System.arraycopy(rest, 0, all, 1, rest.length);
    return all;
  }
}
