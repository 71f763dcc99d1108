package io.rpcx.spring.cloud;

import io.rpcx.server.RpcxServer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.client.serviceregistry.Registration;
import org.springframework.context.SmartLifecycle;

/**
 * Once the RPCX server has started (its lifecycle runs one phase before this one), publishes the
 * port it listens on: into every {@link Registration}'s metadata, and through each {@link
 * Publisher} (Eureka's instance metadata). Needed when the port is chosen at start.
 */
final class RpcxPortPublisher implements SmartLifecycle {
  /** Right after the RPCX server's lifecycle, which starts in Spring Boot's web server phase. */
  static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1024 + 1;

  /** Publishes the port somewhere a registry reads it. */
  @FunctionalInterface
  interface Publisher {
    void publish(int port);
  }

  private final RpcxServer server;
  private final ObjectProvider<Registration> registrations;
  private final ObjectProvider<Publisher> publishers;
  private volatile boolean running;

  RpcxPortPublisher(
      RpcxServer server, ObjectProvider<Registration> registrations, ObjectProvider<Publisher> publishers) {
    this.server = server;
    this.registrations = registrations;
    this.publishers = publishers;
  }

  @Override
  public void start() {
    running = true;
    if (!server.isRunning()) {
      return;
    }
    int port = server.port();
    registrations.orderedStream()
        .forEach(registration -> RpcxPortMetadata.put(registration.getMetadata(), port,
            registration.getServiceId()));
    publishers.orderedStream().forEach(publisher -> publisher.publish(port));
  }

  @Override
  public void stop() {
    running = false;
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public int getPhase() {
    return PHASE;
  }
}
