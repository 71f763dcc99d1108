package io.rpcx.server.internal.transport;

import io.netty.channel.Channel;
import io.rpcx.core.StatusCode;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The maximum age of a server's connections: each is told to go away (GOAWAY, the same graceful
 * drain as a stopping server's) once it is the age, ±10% so that connections opened together do
 * not all move at once, and closed after the grace period if calls still run on it. Clients then
 * open a new connection, through a load balancer or to a name looked up again, so servers added
 * since they connected take their share. Immutable; one per server.
 */
final class ConnectionAge {
  private static final Logger logger = LoggerFactory.getLogger(ConnectionAge.class);

  private final long ageNanos;
  private final long graceNanos;
  private final String reason;

  ConnectionAge(Duration age, Duration grace) {
    this.ageNanos = age.toNanos();
    this.graceNanos = grace.toNanos();
    this.reason = "the connection reached its maximum age (" + age.toMillis() + " ms)";
  }

  /** Starts timing {@code connection}, whose channel has just been opened. */
  void start(Channel channel, ServedConnection connection) {
    long jittered = (long) (ageNanos * (0.9 + 0.2 * ThreadLocalRandom.current().nextDouble()));
    channel
        .eventLoop()
        .schedule(
            () -> {
              if (!channel.isActive()) {
                return;
              }
              logger.debug("Sending GOAWAY to {}: {}", channel.remoteAddress(), reason);
              connection.goAway(StatusCode.OK, reason);
              channel.eventLoop().schedule(() -> closeIfOpen(channel, connection), graceNanos,
                  TimeUnit.NANOSECONDS);
            },
            jittered,
            TimeUnit.NANOSECONDS);
  }

  private void closeIfOpen(Channel channel, ServedConnection connection) {
    if (channel.isActive()) {
      logger.info(
          "Closing the connection from {}: calls still ran on it {} ms after it reached its"
              + " maximum age",
          channel.remoteAddress(),
          TimeUnit.NANOSECONDS.toMillis(graceNanos));
      connection.close("the connection reached its maximum age and its grace period ended");
    }
  }
}
