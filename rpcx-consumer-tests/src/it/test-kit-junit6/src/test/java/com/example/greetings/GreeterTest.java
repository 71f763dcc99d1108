package com.example.greetings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.core.StatusCode;
import io.rpcx.core.UnavailableException;
import io.rpcx.testing.Faults;
import io.rpcx.testing.RpcxExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The test kit's extension on JUnit 6: per class over TCP, per test in-process with a fault. */
class GreeterTest {

  @RegisterExtension
  static final RpcxExtension perClass = RpcxExtension.withServices(new GreeterImpl());

  @RegisterExtension
  final RpcxExtension perTest =
      RpcxExtension.withServices(new GreeterImpl())
          .inProcess()
          .faults(Faults.builder().answer("greeter/greet", StatusCode.UNAVAILABLE, "closed").build())
          .client(client -> client.maxAttempts(1));

  @Test
  void runsOnJUnit6() {
    String version = Test.class.getPackage().getImplementationVersion();
    assertTrue(version != null && version.startsWith("6."), "JUnit Jupiter " + version);
  }

  @Test
  void greetsOverTcp() {
    assertEquals("hello tcp", perClass.create(Greeter.class).greet("tcp"));
  }

  @Test
  void theInProcessServerAnswersTheScriptedStatus() {
    UnavailableException thrown =
        assertThrows(UnavailableException.class, () -> perTest.create(Greeter.class).greet("x"));
    assertEquals(
        "greeter/greet failed on in-process server '" + perTest.inProcessName() + "': closed",
        thrown.getMessage());
  }
}
