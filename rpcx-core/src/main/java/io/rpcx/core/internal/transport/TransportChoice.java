package io.rpcx.core.internal.transport;

import java.util.Locale;
import java.util.function.Function;

/**
 * Which transport a client or server uses, and why, from the value of {@code rpcx.transport}, the
 * builder's {@code nativeTransport} flag and the platform:
 *
 * <ul>
 *   <li>{@code nativeTransport(false)} or {@code nio}: NIO;
 *   <li>{@code epoll}, {@code kqueue}, {@code io_uring}: that native transport, or an error saying
 *       why it is unavailable and which dependency provides it;
 *   <li>{@code auto} (the default): epoll on Linux, kqueue on macOS, when available; NIO otherwise,
 *       with the dependency that would give a native transport. io_uring is never chosen
 *       automatically.
 * </ul>
 *
 * Immutable.
 */
record TransportChoice(Transports transport, String reason) {

  /**
   * Decides.
   *
   * @param setting the value of {@code rpcx.transport}
   * @param allowNative false when the builder turned native transports off
   * @param probe why a native transport is unavailable here, or null if it is available
   */
  static TransportChoice make(
      String setting,
      boolean allowNative,
      Platform platform,
      Function<Transports, Transports.Unavailable> probe) {
    Transports forced = forced(setting);
    if (!allowNative) {
      return new TransportChoice(Transports.NIO, "native transports turned off by the builder");
    }
    if (forced == Transports.NIO) {
      return new TransportChoice(Transports.NIO, "rpcx.transport=nio");
    }
    if (forced != null) {
      Transports.Unavailable unavailable = probe.apply(forced);
      if (unavailable != null) {
        throw new IllegalStateException(
            "rpcx.transport=" + forced.setting() + ", but native " + forced.setting()
                + " is unavailable here: " + unavailable.reason() + advice(forced, platform),
            unavailable.cause());
      }
      return new TransportChoice(forced, "rpcx.transport=" + forced.setting());
    }
    Transports preferred = platform.preferredNative();
    if (preferred == null) {
      return new TransportChoice(
          Transports.NIO, "Netty has no native transport for " + platform.classifier());
    }
    Transports.Unavailable unavailable = probe.apply(preferred);
    if (unavailable != null) {
      return new TransportChoice(
          Transports.NIO,
          "native " + preferred.setting() + " is unavailable: " + unavailable.reason()
              + advice(preferred, platform));
    }
    return new TransportChoice(preferred, null);
  }

  private static Transports forced(String setting) {
    String value = setting.trim().toLowerCase(Locale.ROOT);
    for (Transports transport : Transports.values()) {
      if (transport.setting().equals(value)) {
        return transport;
      }
    }
    if (value.equals("auto")) {
      return null;
    }
    throw new IllegalArgumentException(
        "rpcx.transport=" + setting + " (expected: auto, nio, epoll, kqueue or io_uring)");
  }

  /** Which dependency gives {@code transport} on {@code platform}. */
  private static String advice(Transports transport, Platform platform) {
    String classifier = platform.nativeClassifier(transport);
    if (classifier == null) {
      return "; Netty publishes no native " + transport.setting() + " jar for "
          + platform.classifier();
    }
    return "; add io.netty:" + transport.nativeArtifact() + ":" + nettyVersion() + ":"
        + classifier + " to use it";
  }

  private static String nettyVersion() {
    return NettyVersions.identify().getOrDefault("netty-transport", "<your Netty version>");
  }

  /** The line logged at start: {@code RPCX transport: nio (rpcx.transport=nio)}. */
  String describe() {
    return "RPCX transport: " + transport.setting() + (reason == null ? "" : " (" + reason + ")");
  }
}
