package io.rpcx.server.internal.registration;

import io.rpcx.core.discovery.ServiceEndpoint;
import io.rpcx.core.discovery.ServiceRegistrar;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server's services as announced to a {@link ServiceRegistrar}: registered once the server
 * listens, withdrawn first thing when it stops. Thread-safe.
 */
public final class Registration {
  private static final Logger logger = LoggerFactory.getLogger(Registration.class);

  /**
   * Metadata key of the random id a server registers each time it starts, by which clients tell a
   * restarted server from the one that had its address before.
   */
  public static final String INSTANCE_KEY = "instance";

  /** How long withdrawing may take in all: a slow registry must not eat the grace period. */
  private static final long WITHDRAW_MILLIS = 5_000;

  private final ServiceRegistrar registrar;
  private final List<ServiceRegistrar.Registration> registrations = new ArrayList<>();

  private Registration(ServiceRegistrar registrar) {
    this.registrar = registrar;
  }

  /**
   * Registers {@code services} at the address clients are to use: {@code host} (or one chosen
   * from {@code bound}) and {@code port} (or the bound one if 0), with {@code metadata} and a new
   * instance id. Withdraws what it registered, and throws, if any registration fails.
   */
  public static Registration register(
      ServiceRegistrar registrar,
      List<String> services,
      InetSocketAddress bound,
      String host,
      int port,
      Map<String, String> metadata) {
    Registration registration = new Registration(registrar);
    ServiceEndpoint self;
    try {
      Map<String, String> announced = new LinkedHashMap<>(metadata);
      announced.put(INSTANCE_KEY, UUID.randomUUID().toString());
      self =
          ServiceEndpoint.of(
              host != null ? host : AdvertisedHost.choose(bound.getAddress()),
              port > 0 ? port : bound.getPort(),
              announced);
      for (String service : services) {
        registration.add(registrar.register(service, self));
      }
    } catch (RuntimeException e) {
      logger.error("Registering with {} failed; stopping", registrar.describe(), e);
      registration.withdraw();
      throw e;
    }
    logger.info(
        "Registered {} as {} with {}", String.join(", ", services), self.address(),
        registrar.describe());
    return registration;
  }

  private synchronized void add(ServiceRegistrar.Registration one) {
    registrations.add(one);
  }

  /** Withdraws every registration, in parallel and at most 5 s in all. Idempotent. */
  public void withdraw() {
    List<ServiceRegistrar.Registration> current;
    synchronized (this) {
      current = new ArrayList<>(registrations);
      registrations.clear();
    }
    List<Thread> withdrawals = new ArrayList<>();
    for (ServiceRegistrar.Registration registration : current) {
      Thread thread =
          new Thread(
              () -> {
                try {
                  registration.close();
                } catch (RuntimeException e) {
                  logger.warn("Withdrawing a registration from {} failed", registrar.describe(), e);
                }
              },
              "rpcx-server-withdraw");
      thread.setDaemon(true);
      thread.start();
      withdrawals.add(thread);
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WITHDRAW_MILLIS);
    try {
      for (Thread thread : withdrawals) {
        thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
