package io.rpcx.core.internal.runtime;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * RPCX runs on protobuf-java 3.25.0 up to the last 4.x and on Netty 4.2; any other version on the
 * class path fails the build of a client or server with a message that names the library, the
 * version found and the range.
 */
class RuntimeCompatibilityTest {

  @Test
  void theVersionsOfThisBuildAreSupported() {
    assertEquals(System.getProperty("rpcx.netty.version"), RuntimeCompatibility.BUILT_WITH_NETTY);
    assertEquals(
        System.getProperty("rpcx.protobuf.pinned.version"), RuntimeCompatibility.BUILT_WITH_PROTOBUF);
    assertEquals(System.getProperty("rpcx.protobuf.version"), ProtobufRuntime.version());
    assertDoesNotThrow(RuntimeCompatibility::check);
  }

  @Test
  void protobufJavaFrom3250UpToTheLast4xIsSupported() {
    for (String version : new String[] {"3.25.0", "3.25.8", "4.26.0", "4.33.5", "4.36.2", "4.99.0-rc1"}) {
      assertNull(message(RuntimeCompatibility.protobufProblem(version)), version);
    }
    assertNull(message(RuntimeCompatibility.protobufProblem(null)), "a version nothing tells");
  }

  @Test
  void anOlderProtobufJavaIsRefusedNamingTheVersionAndTheRange() {
    assertEquals(
        "RPCX needs protobuf-java 3.25.0 or newer (up to 4.x); found 3.21.12 on the class path."
            + " Use a version of com.google.protobuf:protobuf-java in that range (RPCX is built with "
            + RuntimeCompatibility.BUILT_WITH_PROTOBUF + ").",
        message(RuntimeCompatibility.protobufProblem("3.21.12")));
    assertEquals(
        "RPCX needs protobuf-java 3.25.0 or newer (up to 4.x); found 3.24.4 on the class path."
            + " Use a version of com.google.protobuf:protobuf-java in that range (RPCX is built with "
            + RuntimeCompatibility.BUILT_WITH_PROTOBUF + ").",
        message(RuntimeCompatibility.protobufProblem("3.24.4")));
  }

  @Test
  void aNewerMajorProtobufJavaIsRefused() {
    assertEquals(
        "RPCX needs protobuf-java 3.25.0 or newer (up to 4.x); found 5.0.1 on the class path."
            + " Use a version of com.google.protobuf:protobuf-java in that range (RPCX is built with "
            + RuntimeCompatibility.BUILT_WITH_PROTOBUF + ").",
        message(RuntimeCompatibility.protobufProblem("5.0.1")));
  }

  @Test
  void netty42IsSupported() {
    assertNull(
        message(RuntimeCompatibility.nettyProblem(
            Map.of("netty-common", "4.2.0.Final", "netty-transport", "4.2.18.Final"), true)));
    assertNull(message(RuntimeCompatibility.nettyProblem(Map.of(), true)), "versions lost, 4.2 API present");
  }

  @Test
  void netty41ManagedByABomIsRefusedNamingTheArtifactAndBothVersions() {
    // What Spring Boot 3.5's dependency management does: Netty 4.1 for every artifact it knows,
    // while netty-codec-base, new in 4.2, stays at RPCX's version.
    Map<String, String> springBoot =
        Map.of(
            "netty-buffer", "4.1.121.Final",
            "netty-codec-base", "4.2.18.Final",
            "netty-common", "4.1.121.Final",
            "netty-transport", "4.1.121.Final");
    assertEquals(
        "RPCX needs Netty 4.2.0.Final or newer (up to 4.2.x); found netty-buffer 4.1.121.Final on"
            + " the class path. Use one version in that range for every io.netty artifact (RPCX is"
            + " built with " + RuntimeCompatibility.BUILT_WITH_NETTY + "); where a BOM such as"
            + " Spring Boot's manages Netty 4.1, set its netty.version property to "
            + RuntimeCompatibility.BUILT_WITH_NETTY + ".",
        message(RuntimeCompatibility.nettyProblem(springBoot, false)));
  }

  @Test
  void aNettyWithoutVersionsIsJudgedByItsApi() {
    assertEquals(
        "RPCX needs Netty 4.2.0.Final or newer (up to 4.2.x); found a Netty without"
            + " io.netty.channel.IoHandlerFactory (older than 4.2) on the class path. Use one"
            + " version in that range for every io.netty artifact (RPCX is built with "
            + RuntimeCompatibility.BUILT_WITH_NETTY + "); where a BOM such as Spring Boot's manages"
            + " Netty 4.1, set its netty.version property to "
            + RuntimeCompatibility.BUILT_WITH_NETTY + ".",
        message(RuntimeCompatibility.nettyProblem(Map.of(), false)));
  }

  @Test
  void aLaterNettyLineIsRefused() {
    assertEquals(
        "RPCX needs Netty 4.2.0.Final or newer (up to 4.2.x); found netty-transport 4.3.0.Final on"
            + " the class path. Use one version in that range for every io.netty artifact (RPCX is"
            + " built with " + RuntimeCompatibility.BUILT_WITH_NETTY + "); where a BOM such as"
            + " Spring Boot's manages Netty 4.1, set its netty.version property to "
            + RuntimeCompatibility.BUILT_WITH_NETTY + ".",
        message(RuntimeCompatibility.nettyProblem(Map.of("netty-transport", "4.3.0.Final"), true)));
  }

  @Test
  void versionsAreComparedByTheirNumbers() {
    assertEquals(new Version(4, 2, 18), Version.parse("4.2.18.Final"));
    assertEquals(new Version(3, 25, 0), Version.parse("3.25.0"));
    assertEquals(new Version(4, 0, 0), Version.parse("4.0.0-rc2"));
    assertEquals(new Version(4, 33, 0), Version.parse("4.33"));
    assertNull(Version.parse("unknown"));
    assertEquals(-1, Integer.signum(Version.parse("4.9.1").compareTo(Version.parse("4.10.0"))));
  }

  /** The message of {@code problem}, or {@code null} for none. */
  private static String message(Exception problem) {
    return problem == null ? null : problem.getMessage();
  }
}
