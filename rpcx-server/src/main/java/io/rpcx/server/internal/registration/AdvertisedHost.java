package io.rpcx.server.internal.registration;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The host a server announces when none was set: the address it is bound to if that is a specific
 * one, else the first site-local IPv4 address of an interface that is up, else any non-loopback
 * one, else loopback.
 */
final class AdvertisedHost {
  private static final Logger logger = LoggerFactory.getLogger(AdvertisedHost.class);

  private AdvertisedHost() {}

  static String choose(InetAddress bound) {
    if (!bound.isAnyLocalAddress()) {
      return bound.getHostAddress();
    }
    InetAddress fallback = null;
    try {
      for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        if (!nic.isUp() || nic.isLoopback()) {
          continue;
        }
        for (InetAddress candidate : Collections.list(nic.getInetAddresses())) {
          if (candidate instanceof Inet4Address && candidate.isSiteLocalAddress()) {
            return candidate.getHostAddress();
          }
          if (fallback == null && !candidate.isLinkLocalAddress()) {
            fallback = candidate;
          }
        }
      }
    } catch (SocketException e) {
      logger.warn("Cannot list network interfaces to choose the address to register", e);
    }
    String chosen =
        fallback != null
            ? fallback.getHostAddress()
            : InetAddress.getLoopbackAddress().getHostAddress();
    logger.info("Registering address {}; set RpcxServer.Builder.advertise(...) to choose", chosen);
    return chosen;
  }
}
