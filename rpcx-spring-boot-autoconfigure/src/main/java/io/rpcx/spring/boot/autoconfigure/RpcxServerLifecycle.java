package io.rpcx.spring.boot.autoconfigure;

import io.rpcx.server.RpcxServer;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;

/**
 * Starts the application's RPCX server when the context has started its beans, and stops it
 * gracefully before Spring Boot shuts its web server down: the server withdraws from its registry,
 * tells its clients (GOAWAY), and lets calls in flight finish within its grace period, on a thread
 * of its own, while the web server and the actuator still answer, so that a health check over HTTP
 * sees it drain (OUT_OF_SERVICE). The port it listens on is published as {@code
 * local.rpcx.server.port}, and the port of its HTTP side, when it serves HTTP, as {@code
 * local.rpcx.server.http.port} (the same port unless {@code rpcx.server.http.port} is set); while it runs, a thread that is not a daemon keeps the JVM alive, as a
 * web server's does.
 */
final class RpcxServerLifecycle implements SmartLifecycle {
  /**
   * The phase of Spring Boot's graceful web server shutdown ({@code
   * WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE}), where the web server stops taking
   * requests; it starts and finally stops in the phase 1024 below ({@code
   * WebServerStartStopLifecycle}).
   */
  static final int WEB_SERVER_GRACEFUL_SHUTDOWN_PHASE = SmartLifecycle.DEFAULT_PHASE - 1024;

  /**
   * Above the web server's: phases stop from the highest down and each waits for the one above,
   * so RPCX drains before the web server stops answering health checks (and starts after it).
   */
  static final int PHASE = WEB_SERVER_GRACEFUL_SHUTDOWN_PHASE + 512;

  static final String PORT_PROPERTY = "local.rpcx.server.port";
  static final String HTTP_PORT_PROPERTY = "local.rpcx.server.http.port";
  private static final String PROPERTY_SOURCE = "rpcx.server.ports";
  private static final Logger logger = LoggerFactory.getLogger(RpcxServerLifecycle.class);

  private final RpcxServer server;
  private final ConfigurableEnvironment environment;
  /** Whether the server serves HTTP ({@code rpcx.server.http.enabled}), whose port is published too. */
  private final boolean http;
  private volatile State state = State.NEW;

  /** Where the server is in its life, for the health indicator. */
  enum State {
    NEW,
    SERVING,
    DRAINING,
    STOPPED
  }

  RpcxServerLifecycle(RpcxServer server, ConfigurableEnvironment environment, boolean http) {
    this.server = server;
    this.environment = environment;
    this.http = http;
  }

  @Override
  public void start() {
    if (state != State.NEW) {
      // a context restarted after a stop: an RpcxServer runs once
      throw new IllegalStateException(
          "The RPCX server of this context was stopped and cannot start again: close the context"
              + " and start a new one");
    }
    server.start();
    MutablePropertySources sources = environment.getPropertySources();
    sources.remove(PROPERTY_SOURCE);
    Map<String, Object> ports =
        http
            ? Map.of(PORT_PROPERTY, server.port(), HTTP_PORT_PROPERTY, server.httpPort())
            : Map.of(PORT_PROPERTY, server.port());
    sources.addFirst(new MapPropertySource(PROPERTY_SOURCE, ports));
    state = State.SERVING;
    keepAlive();
  }

  /**
   * A thread that is not a daemon and waits for the server to stop: RPCX's network threads are
   * daemons, so an application whose only server is RPCX (no web server) would otherwise end as
   * soon as its main method returns.
   */
  private void keepAlive() {
    Thread waiting =
        new Thread(
            () -> {
              try {
                server.awaitTermination();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "rpcx-server-keep-alive");
    waiting.setDaemon(false);
    waiting.start();
  }

  @Override
  public void stop() {
    state = State.DRAINING;
    try {
      server.stop();
    } finally {
      state = State.STOPPED;
    }
  }

  @Override
  public void stop(Runnable callback) {
    state = State.DRAINING;
    Thread stopping =
        new Thread(
            () -> {
              try {
                server.stop();
              } catch (RuntimeException e) {
                logger.warn("Stopping the RPCX server failed", e);
              } finally {
                state = State.STOPPED;
                callback.run();
              }
            },
            "rpcx-server-shutdown");
    stopping.start();
  }

  @Override
  public boolean isRunning() {
    return state == State.SERVING;
  }

  @Override
  public int getPhase() {
    return PHASE;
  }

  /** A context's pause() leaves the server serving: once stopped, it could not start again. */
  @Override
  public boolean isPauseable() {
    return false;
  }

  State state() {
    return state;
  }
}
