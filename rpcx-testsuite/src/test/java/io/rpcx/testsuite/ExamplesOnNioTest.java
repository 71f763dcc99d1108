package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.examples.client.ExampleClient;
import io.rpcx.examples.server.ExampleServer;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The examples on a machine without epoll: the example server and the example client, each in a
 * JVM of its own with no native transport jar on its class path and NIO forced by the switch
 * ({@code -Drpcx.transport=nio}), as {@code scripts/run-examples.sh} runs them. The client exits 0
 * when every example call returned what it should.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ExamplesOnNioTest {
  private static final Pattern READY = Pattern.compile("ready on port (\\d+)");

  @Test
  void theExampleClientSucceedsAgainstTheExampleServerOnNio() throws Exception {
    Process server = start(ExampleServer.class, "--port", "0");
    Output serverOutput = new Output(server);
    try {
      assertTrue(serverOutput.ready.await(60, TimeUnit.SECONDS), "server never ready:\n" + serverOutput);
      Process client =
          start(ExampleClient.class, "--host", "127.0.0.1", "--port", serverOutput.port);
      Output clientOutput = new Output(client);
      assertTrue(client.waitFor(60, TimeUnit.SECONDS), "client still running:\n" + clientOutput);
      clientOutput.done.await(10, TimeUnit.SECONDS);
      assertEquals(0, client.exitValue(), clientOutput.toString());
      assertTrue(clientOutput.toString().contains("All calls succeeded."), clientOutput.toString());
      assertTrue(
          clientOutput.toString().contains("RPCX transport: nio (rpcx.transport=nio)"),
          clientOutput.toString());
      assertTrue(
          serverOutput.toString().contains("RPCX transport: nio (rpcx.transport=nio)"),
          serverOutput.toString());
    } finally {
      server.destroy();
      if (!server.waitFor(20, TimeUnit.SECONDS)) {
        server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * {@code main} in a new JVM on the examples' class path, less any native transport jar and the
   * tests' own classes (whose logback-test.xml would hide the examples' INFO lines).
   */
  private static Process start(Class<?> main, String... args) throws IOException {
    String testClasses = Paths.get("target", "test-classes").toAbsolutePath().toString();
    String classPath =
        List.of(
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"))
                    .split(File.pathSeparator))
            .stream()
            .filter(entry -> !entry.contains("netty-transport-native-"))
            .filter(entry -> !entry.contains("netty-transport-classes-"))
            .filter(entry -> !Path.of(entry).toAbsolutePath().toString().equals(testClasses))
            .collect(Collectors.joining(File.pathSeparator));
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-Drpcx.transport=nio");
    command.add("-cp");
    command.add(classPath);
    command.add(main.getName());
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  /** Everything a process prints, read as it comes; knows the server's port once it is ready. */
  private static final class Output {
    final CountDownLatch ready = new CountDownLatch(1);
    final CountDownLatch done = new CountDownLatch(1);
    private final StringBuffer text = new StringBuffer();
    volatile String port;

    Output(Process process) {
      Thread reader =
          new Thread(
              () -> {
                try (BufferedReader lines =
                    new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                  for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    text.append(line).append('\n');
                    Matcher matcher = READY.matcher(line);
                    if (matcher.find()) {
                      port = matcher.group(1);
                      ready.countDown();
                    }
                  }
                } catch (IOException e) {
                  text.append(e).append('\n');
                } finally {
                  done.countDown();
                }
              },
              "output-of-" + process.pid());
      reader.setDaemon(true);
      reader.start();
    }

    @Override
    public String toString() {
      return text.toString();
    }
  }
}
