package io.rpcx.benchmarks.connections;

import io.rpcx.server.RpcxServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

/**
 * The measured JVM of the connection-cost tool: an {@link RpcxServer} with RPCX's defaults,
 * publishing {@link ConnectionCostServiceImpl} on 127.0.0.1, driven by {@link
 * ConnectionCostTool} over its standard input and output. It prints {@code @@ port <n>} when it
 * serves, then answers one command per line:
 *
 * <ul>
 *   <li>{@code measure}: a {@link MemorySnapshot} of this JVM, one {@code @@ } line per value, then
 *       {@code @@ end};
 *   <li>{@code await-calls <n>}, {@code await-waiting <n>}, {@code await-connections <n>}:
 *       {@code @@ ok} once the server has at least {@code n} calls in flight, at least {@code n}
 *       calls waiting in {@code hold} or {@code block}, or exactly {@code n} connections open;
 *   <li>{@code open-gate}, {@code close-gate}: lets every waiting call finish and later ones pass,
 *       or makes calls from now on wait; {@code @@ ok};
 *   <li>{@code quit}: stops the server and exits.
 * </ul>
 *
 * Arguments: {@code <maxConnections> [direct|workers]}: {@code direct} runs calls on the event
 * loops ({@code directExecutor()}), {@code workers} (the default) on RPCX's worker pool. Anything
 * else the JVM prints goes to standard error.
 */
public final class CostServer {
  static final String PREFIX = "@@ ";
  private static final Duration WAIT_LIMIT = Duration.ofMinutes(2);

  private CostServer() {}

  public static void main(String[] args) throws IOException {
    int maxConnections = Integer.parseInt(args[0]);
    PrintStream out = System.out;
    System.setOut(System.err); // only the protocol on standard output
    ConnectionCostServiceImpl service = new ConnectionCostServiceImpl();
    boolean direct = args.length > 1 && args[1].equals("direct");
    RpcxServer.Builder builder =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .port(0)
            .maxConnections(maxConnections)
            // Every connection of the tool comes from 127.0.0.1, up to 256 handshaking at once.
            .maxHandshakingConnectionsPerAddress(1_000)
            // Longer than any run, so that idle connections stay: RpcxClient would keep them
            // alive with a ping every 30 s, which the lean client does not send.
            .idleTimeout(Duration.ofHours(1))
            .service(service);
    if (direct) {
      builder.directExecutor();
    } else {
      builder.workerPool(); // the worker pool on every Java, as its reports say
    }
    RpcxServer server = builder.build().start();
    out.println(PREFIX + "port " + server.port());
    out.flush();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      String[] command = line.trim().split(" ");
      switch (command[0]) {
        case "measure" -> {
          MemorySnapshot snapshot =
              MemorySnapshot.take(server.connectionCount(), server.callsInFlight());
          for (String value : snapshot.lines()) {
            out.println(PREFIX + value);
          }
          out.println(PREFIX + "end");
        }
        case "await-calls" -> {
          int n = Integer.parseInt(command[1]);
          out.println(await("calls in flight >= " + n, server::callsInFlight, c -> c >= n));
        }
        case "await-connections" -> {
          int n = Integer.parseInt(command[1]);
          out.println(await("open connections == " + n, server::connectionCount, c -> c == n));
        }
        case "await-waiting" -> {
          int n = Integer.parseInt(command[1]);
          out.println(await("waiting calls >= " + n, service::waiting, c -> c >= n));
        }
        case "open-gate" -> {
          service.open();
          out.println(PREFIX + "ok");
        }
        case "close-gate" -> {
          service.close();
          out.println(PREFIX + "ok");
        }
        case "quit" -> {
          server.stop(Duration.ofSeconds(1));
          out.println(PREFIX + "ok");
          out.flush();
          System.exit(0);
        }
        default -> out.println(PREFIX + "error unknown command '" + line + "'");
      }
      out.flush();
    }
    server.stop(Duration.ofSeconds(1));
  }

  /** Waits, checking every few milliseconds, until {@code done} holds; the reply line. */
  private static String await(
      String what, IntSupplier value, java.util.function.IntPredicate done) {
    long deadline = System.nanoTime() + WAIT_LIMIT.toNanos();
    while (!done.test(value.getAsInt())) {
      if (System.nanoTime() - deadline > 0) {
        return PREFIX + "error waited " + WAIT_LIMIT.toSeconds() + " s for " + what + ", have "
            + value.getAsInt();
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
    return PREFIX + "ok";
  }
}
