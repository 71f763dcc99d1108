package io.rpcx.core.internal.transport;

import io.netty.util.Version;
import java.util.Map;
import java.util.TreeMap;

/** Which Netty release is on the class path. */
public final class NettyVersions {
  private NettyVersions() {}

  /**
   * The versions of the Netty artifacts on the class path, by artifact id ({@code netty-transport
   * → 4.2.18.Final}), as Netty's jars declare them; empty if their declarations were lost (in a
   * jar that merged them, for example).
   */
  public static Map<String, String> identify() {
    Map<String, String> versions = new TreeMap<>();
    for (Map.Entry<String, Version> entry :
        Version.identify(NettyVersions.class.getClassLoader()).entrySet()) {
      versions.put(entry.getKey(), entry.getValue().artifactVersion());
    }
    return versions;
  }

  /** Whether the Netty on the class path has the 4.2 I/O handler API RPCX builds event loops on. */
  public static boolean hasIoHandlers() {
    try {
      Class.forName(
          "io.netty.channel.IoHandlerFactory", false, NettyVersions.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }
}
