package io.rpcx.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The extension runs a server and a client, over TCP or in-process, per class or per test. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RpcxExtensionTest {

  @RegisterExtension
  static final RpcxExtension perClass = RpcxExtension.withServices(new Greeter.Impl());

  @RegisterExtension
  final RpcxExtension perTestInProcess = RpcxExtension.withServices(new Greeter.Impl()).inProcess();

  @Test
  void aPerClassServerListensOnAnEphemeralPortOfLoopback() {
    assertEquals("hello tcp", perClass.create(Greeter.class).greet("tcp"));
    assertTrue(perClass.port() > 0);
    assertEquals(1, perClass.server().connectionCount());
    IllegalStateException notInProcess =
        assertThrows(IllegalStateException.class, perClass::inProcessName);
    assertEquals(
        "the server listens on port " + perClass.port() + ", not in-process (see inProcess())",
        notInProcess.getMessage());
  }

  @Test
  void anInProcessServerHasANameAndNoPort() {
    assertEquals("hello local", perTestInProcess.create(Greeter.class).greet("local"));
    assertTrue(perTestInProcess.inProcessName().startsWith("rpcx-testing-"));
    IllegalStateException noPort =
        assertThrows(IllegalStateException.class, perTestInProcess::port);
    assertEquals(
        "the server serves in-process as '" + perTestInProcess.inProcessName()
            + "' and has no port",
        noPort.getMessage());
  }

  @Test
  void theExtensionCannotBeConfiguredOnceItsServerStarted() {
    IllegalStateException thrown =
        assertThrows(IllegalStateException.class, () -> perClass.client(client -> {}));
    assertEquals(
        "client(...) after the extension started its server: configure it where it is declared",
        thrown.getMessage());
  }

  @Test
  void outsideATestThereIsNoServer() {
    RpcxExtension idle = RpcxExtension.withServices(new Greeter.Impl());
    IllegalStateException thrown = assertThrows(IllegalStateException.class, idle::client);
    assertEquals(
        "the RpcxExtension has no server running: it runs during the tests of the class when"
            + " registered in a static field, during each test when in an instance field",
        thrown.getMessage());
  }

  /** Each test gets a new per-test server: a fresh in-process name. */
  @Nested
  class PerTest {
    @RegisterExtension
    final RpcxExtension own = RpcxExtension.withServices(new Greeter.Impl()).inProcess();

    @Test
    void aNestedClassHasItsOwnServerBesideTheOuterOnes() {
      assertEquals("*waves at you*", own.create(Greeter.class).wave("you"));
      assertEquals("hello outer", perClass.create(Greeter.class).greet("outer"));
    }
  }
}
