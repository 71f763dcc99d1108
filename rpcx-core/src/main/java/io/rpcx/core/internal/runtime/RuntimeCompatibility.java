package io.rpcx.core.internal.runtime;

import io.rpcx.core.UnsupportedRuntimeException;
import io.rpcx.core.internal.transport.NettyVersions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks, once per class loader, that the protobuf-java and Netty on the class path are versions
 * RPCX runs with, so that a build whose dependency management pins other versions (grpc-java's
 * protobuf-java 3.25, Spring Boot's Netty 4.1) fails when a client or server is built, with a
 * message naming the library, the version found and the range supported, instead of failing later
 * with a {@code NoClassDefFoundError} that names neither.
 */
public final class RuntimeCompatibility {
  private static final Logger logger = LoggerFactory.getLogger(RuntimeCompatibility.class);

  /** The versions RPCX is built with. */
  static final String BUILT_WITH_PROTOBUF;

  static final String BUILT_WITH_NETTY;

  static {
    Properties build = new Properties();
    try (InputStream in = RuntimeCompatibility.class.getResourceAsStream("build.properties")) {
      if (in == null) {
        throw new IllegalStateException("rpcx-core is incomplete: build.properties is missing");
      }
      build.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    BUILT_WITH_PROTOBUF = build.getProperty("protobuf.version");
    BUILT_WITH_NETTY = build.getProperty("netty.version");
  }

  static final SupportedRange PROTOBUF =
      new SupportedRange(
          "protobuf-java",
          "3.25.0",
          new Version(5, 0, 0),
          "4.x",
          "Use a version of com.google.protobuf:protobuf-java in that range (RPCX is built with "
              + BUILT_WITH_PROTOBUF + ").");

  static final SupportedRange NETTY =
      new SupportedRange(
          "Netty",
          "4.2.0.Final",
          new Version(4, 3, 0),
          "4.2.x",
          "Use one version in that range for every io.netty artifact (RPCX is built with "
              + BUILT_WITH_NETTY + "); where a BOM such as Spring Boot's manages Netty 4.1, set"
              + " its netty.version property to " + BUILT_WITH_NETTY + ".");

  /** The Netty artifacts RPCX uses, directly or through its optional native transports. */
  private static final List<String> NETTY_ARTIFACTS =
      List.of(
          "netty-buffer",
          "netty-codec-base",
          "netty-common",
          "netty-handler",
          "netty-resolver",
          "netty-transport",
          "netty-transport-classes-epoll",
          "netty-transport-classes-io_uring",
          "netty-transport-classes-kqueue",
          "netty-transport-native-unix-common");

  private static final UnsupportedRuntimeException PROBLEM = findProblem();

  private RuntimeCompatibility() {}

  /**
   * Fails if the class path holds a protobuf-java or Netty that RPCX does not run with.
   *
   * @throws UnsupportedRuntimeException naming the library, the version found and the range
   *     supported
   */
  public static void check() {
    if (PROBLEM != null) {
      // a new exception each time, with the caller's stack, carrying the same facts
      throw new UnsupportedRuntimeException(
          PROBLEM.library(), PROBLEM.found(), PROBLEM.supported(), PROBLEM.advice());
    }
  }

  private static UnsupportedRuntimeException findProblem() {
    String protobuf = ProtobufRuntime.version();
    Map<String, String> netty = NettyVersions.identify();
    logger.debug("protobuf-java {}, Netty {}", protobuf == null ? "(version unknown)" : protobuf, netty);
    UnsupportedRuntimeException problem = protobufProblem(protobuf);
    return problem != null ? problem : nettyProblem(netty, NettyVersions.hasIoHandlers());
  }

  /** What is wrong with protobuf-java {@code version}, or {@code null} ({@code null} if unknown). */
  static UnsupportedRuntimeException protobufProblem(String version) {
    return version == null || PROTOBUF.contains(version) ? null : PROTOBUF.problem(version);
  }

  /**
   * What is wrong with the Netty artifacts {@code versions} (artifact id to version), or {@code
   * null}. Without versions (a jar that merged Netty's), the 4.2 API decides.
   */
  static UnsupportedRuntimeException nettyProblem(Map<String, String> versions, boolean hasIoHandlers) {
    for (String artifact : NETTY_ARTIFACTS) {
      String version = versions.get(artifact);
      if (version != null && !NETTY.contains(version)) {
        return NETTY.problem(artifact + " " + version);
      }
    }
    if (!hasIoHandlers) {
      return NETTY.problem("a Netty without io.netty.channel.IoHandlerFactory (older than 4.2)");
    }
    return null;
  }
}
