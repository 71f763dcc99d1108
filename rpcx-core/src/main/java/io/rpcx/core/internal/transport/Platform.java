package io.rpcx.core.internal.transport;

import java.util.Locale;

/**
 * The operating system and processor this JVM runs on, named as Netty's native jars are classified
 * ({@code linux-x86_64}, {@code osx-aarch_64}). Immutable.
 */
record Platform(String os, String arch) {

  /** This JVM's platform. */
  static Platform current() {
    return of(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
  }

  /** The platform of an {@code os.name} and {@code os.arch}. */
  static Platform of(String osName, String osArch) {
    String name = osName.toLowerCase(Locale.ROOT);
    String os =
        name.startsWith("linux")
            ? "linux"
            : name.startsWith("mac") || name.startsWith("darwin") ? "osx" : name.replace(' ', '_');
    String arch = osArch.toLowerCase(Locale.ROOT);
    switch (arch) {
      case "amd64":
      case "x86_64":
      case "x64":
        arch = "x86_64";
        break;
      case "aarch64":
      case "arm64":
        arch = "aarch_64";
        break;
      default:
        break;
    }
    return new Platform(os, arch);
  }

  /** The classifier of Netty's native jars for this platform: {@code linux-x86_64}. */
  String classifier() {
    return os + "-" + arch;
  }

  /**
   * The classifier of Netty's jar of native {@code transport} for this platform ({@code
   * linux-x86_64}), or {@code null} if Netty publishes none: epoll and io_uring are for Linux,
   * kqueue for macOS, each on x86_64 and aarch_64.
   */
  String nativeClassifier(Transports transport) {
    String nativeOs = transport == Transports.KQUEUE ? "osx" : "linux";
    boolean published =
        transport != Transports.NIO
            && os.equals(nativeOs)
            && (arch.equals("x86_64") || arch.equals("aarch_64"));
    return published ? classifier() : null;
  }

  /** The native transport an automatic choice tries here: epoll on Linux, kqueue on macOS. */
  Transports preferredNative() {
    return os.equals("linux") ? Transports.EPOLL : os.equals("osx") ? Transports.KQUEUE : null;
  }
}
