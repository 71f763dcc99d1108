package io.rpcx.core.internal.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The transport of a client or server: the platform's native one when its jar is there (epoll on
 * Linux, kqueue on macOS), io_uring only when asked for, NIO otherwise, with a line that says which
 * dependency would give a native transport.
 */
class TransportsTest {
  private static final String NETTY = System.getProperty("rpcx.netty.version");
  private static final Platform LINUX_X86 = Platform.of("Linux", "amd64");
  private static final Platform LINUX_ARM = Platform.of("Linux", "aarch64");
  private static final Platform MAC_ARM = Platform.of("Mac OS X", "aarch64");
  private static final Platform WINDOWS = Platform.of("Windows 11", "amd64");

  private static final Transports.Unavailable NO_CLASSES =
      new Transports.Unavailable("io.netty:netty-transport-classes-epoll is not on the class path", null);

  private static Function<Transports, Transports.Unavailable> available(Transports... present) {
    return transport -> List.of(present).contains(transport) ? null : NO_CLASSES;
  }

  @Test
  void autoPicksEpollOnLinuxAndKqueueOnMacOs() {
    TransportChoice linux = TransportChoice.make("auto", true, LINUX_X86, available(Transports.EPOLL));
    assertEquals(Transports.EPOLL, linux.transport());
    assertEquals("RPCX transport: epoll", linux.describe());
    TransportChoice mac = TransportChoice.make("auto", true, MAC_ARM, available(Transports.KQUEUE));
    assertEquals(Transports.KQUEUE, mac.transport());
    assertEquals("RPCX transport: kqueue", mac.describe());
  }

  @Test
  void autoWithoutTheNativeJarIsNioAndNamesTheDependencyForThePlatform() {
    TransportChoice linux = TransportChoice.make("auto", true, LINUX_ARM, available());
    assertEquals(Transports.NIO, linux.transport());
    assertEquals(
        "RPCX transport: nio (native epoll is unavailable: io.netty:netty-transport-classes-epoll is"
            + " not on the class path; add io.netty:netty-transport-native-epoll:" + NETTY
            + ":linux-aarch_64 to use it)",
        linux.describe());
    assertEquals(
        "RPCX transport: nio (native kqueue is unavailable: io.netty:netty-transport-classes-epoll"
            + " is not on the class path; add io.netty:netty-transport-native-kqueue:" + NETTY
            + ":osx-aarch_64 to use it)",
        TransportChoice.make("auto", true, MAC_ARM, available()).describe());
  }

  @Test
  void autoIsNioWhereNettyHasNoNativeTransport() {
    TransportChoice windows = TransportChoice.make("auto", true, WINDOWS, available());
    assertEquals(Transports.NIO, windows.transport());
    assertEquals(
        "RPCX transport: nio (Netty has no native transport for windows_11-x86_64)",
        windows.describe());
  }

  @Test
  void ioUringOnlyWhenAskedFor() {
    Function<Transports, Transports.Unavailable> uringOnly = available(Transports.IO_URING);
    assertEquals(
        Transports.NIO, TransportChoice.make("auto", true, LINUX_X86, uringOnly).transport());
    TransportChoice asked = TransportChoice.make("io_uring", true, LINUX_X86, uringOnly);
    assertEquals(Transports.IO_URING, asked.transport());
    assertEquals("RPCX transport: io_uring (rpcx.transport=io_uring)", asked.describe());
  }

  @Test
  void aNativeTransportAskedForButUnavailableIsAnErrorNamingTheDependency() {
    IllegalStateException uring =
        assertThrows(
            IllegalStateException.class,
            () ->
                TransportChoice.make(
                    "io_uring",
                    true,
                    LINUX_X86,
                    t -> new Transports.Unavailable("its native library did not load (nope)", null)));
    assertEquals(
        "rpcx.transport=io_uring, but native io_uring is unavailable here: its native library did"
            + " not load (nope); add io.netty:netty-transport-native-io_uring:" + NETTY
            + ":linux-x86_64 to use it",
        uring.getMessage());
    IllegalStateException kqueue =
        assertThrows(
            IllegalStateException.class,
            () -> TransportChoice.make("kqueue", true, LINUX_X86, available()));
    assertEquals(
        "rpcx.transport=kqueue, but native kqueue is unavailable here:"
            + " io.netty:netty-transport-classes-epoll is not on the class path; Netty publishes no"
            + " native kqueue jar for linux-x86_64",
        kqueue.getMessage());
  }

  @Test
  void nioWhenTheBuilderTurnsNativeOffOrThePropertySaysSo() {
    Function<Transports, Transports.Unavailable> all =
        available(Transports.EPOLL, Transports.IO_URING);
    TransportChoice builder = TransportChoice.make("epoll", false, LINUX_X86, all);
    assertEquals(Transports.NIO, builder.transport());
    assertEquals(
        "RPCX transport: nio (native transports turned off by the builder)", builder.describe());
    TransportChoice property = TransportChoice.make(" NIO ", true, LINUX_X86, all);
    assertEquals(Transports.NIO, property.transport());
    assertEquals("RPCX transport: nio (rpcx.transport=nio)", property.describe());
  }

  @Test
  void anUnknownSettingIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> TransportChoice.make("netty", true, LINUX_X86, available()));
    assertEquals(
        "rpcx.transport=netty (expected: auto, nio, epoll, kqueue or io_uring)", e.getMessage());
  }

  @Test
  void platformsAreNamedAsNettyClassifiesItsNativeJars() {
    assertEquals("linux-x86_64", LINUX_X86.classifier());
    assertEquals("linux-aarch_64", LINUX_ARM.classifier());
    assertEquals("osx-aarch_64", MAC_ARM.classifier());
    assertEquals("osx-x86_64", Platform.of("Mac OS X", "x86_64").classifier());
    assertNull(LINUX_X86.nativeClassifier(Transports.KQUEUE));
    assertNull(Platform.of("Linux", "s390x").nativeClassifier(Transports.EPOLL));
    assertEquals("linux-x86_64", LINUX_X86.nativeClassifier(Transports.IO_URING));
  }

  @Test
  void withoutTheNativeLibraryANativeTransportIsUnavailable() {
    // rpcx-core compiles against the classes jars only; no native library is on this class path.
    assertNull(Transports.unavailability(Transports.NIO));
    Transports.Unavailable epoll = Transports.unavailability(Transports.EPOLL);
    assertNotNull(epoll);
    assertNotNull(epoll.cause());
  }

  /** A user without any native jar: loading and using Transports must not need their classes. */
  @Test
  void withoutTheNativeClassesJarsTransportsLoadsAndChoosesNio() throws Exception {
    List<URL> classPath = new ArrayList<>();
    String path =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    for (String entry : path.split(File.pathSeparator)) {
      if (!entry.contains("netty-transport-classes-") && !entry.contains("netty-transport-native-")) {
        classPath.add(new File(entry).toURI().toURL());
      }
    }
    try (URLClassLoader loader =
        new URLClassLoader(classPath.toArray(new URL[0]), ClassLoader.getPlatformClassLoader())) {
      Class<?> transports = loader.loadClass(Transports.class.getName());
      Object chosen = transports.getMethod("choose", boolean.class).invoke(null, true);
      assertEquals("NIO", ((Enum<?>) chosen).name());

      Method unavailability = transports.getDeclaredMethod("unavailability", transports);
      unavailability.setAccessible(true);
      Method reason = loader.loadClass(Transports.Unavailable.class.getName()).getMethod("reason");
      reason.setAccessible(true);
      for (Object transport : transports.getEnumConstants()) {
        String name = ((Enum<?>) transport).name().toLowerCase(Locale.ROOT);
        if (!name.equals("nio")) {
          assertEquals(
              "io.netty:netty-transport-classes-" + name + " is not on the class path",
              reason.invoke(unavailability.invoke(null, transport)));
        }
      }

      Object group =
          transports.getMethod("newGroup", int.class, String.class).invoke(chosen, 1, "isolated");
      Object stopped =
          group.getClass()
              .getMethod("shutdownGracefully", long.class, long.class, TimeUnit.class)
              .invoke(group, 0L, 1L, TimeUnit.SECONDS);
      assertEquals(
          true,
          stopped.getClass()
              .getMethod("await", long.class, TimeUnit.class)
              .invoke(stopped, 5L, TimeUnit.SECONDS));
    }
  }
}
