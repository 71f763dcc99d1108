package io.rpcx.benchmarks.api;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The server JVM of {@link ServerJvm}: starts the server of the system named by its one argument
 * (a name registered in {@link Systems}), prints {@code @@ port <n>} on standard output once it
 * serves, and stops it and exits when it reads {@code quit} or its standard input ends (the JVM
 * that started it is gone). Anything else the server prints goes to standard error.
 */
public final class ServerJvmMain {
  static final String PORT = "@@ port ";
  static final String QUIT = "quit";

  private ServerJvmMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println(
          "Usage: java -cp benchmarks.jar " + ServerJvmMain.class.getName() + " SYSTEM");
      System.exit(2);
    }
    PrintStream out = System.out;
    System.setOut(System.err); // only the port on standard output
    BenchmarkServer server = Systems.get(args[0]).startServer();
    try {
      out.println(PORT + server.port());
      out.flush();
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      String line;
      while ((line = in.readLine()) != null && !line.equals(QUIT)) {
        System.err.println("server JVM: unknown command '" + line + "' (expected: " + QUIT + ")");
      }
    } catch (IOException e) {
      System.err.println("server JVM: standard input failed, stopping: " + e);
    } finally {
      server.close();
    }
    System.exit(0); // non-daemon threads of a library must not keep the JVM
  }
}
