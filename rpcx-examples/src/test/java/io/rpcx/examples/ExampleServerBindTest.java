package io.rpcx.examples;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rpcx.examples.server.ExampleServer;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The example server listens on every interface unless {@code --bind} names one address, and its
 * metrics port follows. Told apart with two loopback addresses: 127.0.0.2 reaches a server on
 * every interface, and not one bound to 127.0.0.1.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ExampleServerBindTest {

  @Test
  void bindListensOnTheOneAddressItNamesAndTheMetricsPortToo() throws IOException {
    try (ExampleServer all = ExampleServer.start("--port", "0", "--metrics-port", "0")) {
      connect("127.0.0.1", all.server().port());
      assumeTrue(
          reachable("127.0.0.2", all.server().port()),
          "127.0.0.2 is no loopback address here (Linux routes all of 127.0.0.0/8 to lo)");
      connect("127.0.0.2", all.metricsPort()); // every interface: another address reaches it
    }
    try (ExampleServer bound =
        ExampleServer.start("--port", "0", "--bind", "127.0.0.1", "--metrics-port", "0")) {
      connect("127.0.0.1", bound.server().port());
      connect("127.0.0.1", bound.metricsPort());
      assertThrows(ConnectException.class, () -> connect("127.0.0.2", bound.server().port()));
      assertThrows(ConnectException.class, () -> connect("127.0.0.2", bound.metricsPort()));
    }
  }

  private static boolean reachable(String host, int port) {
    try {
      connect(host, port);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static void connect(String host, int port) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), 5_000);
    }
  }
}
