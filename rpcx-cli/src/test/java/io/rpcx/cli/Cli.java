package io.rpcx.cli;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

/** Runs {@code rpcx} in-process, as a shell would, capturing its exit code, stdout and stderr. */
final class Cli {
  private Cli() {}

  /**
   * What a run printed and returned.
   *
   * @param exit the exit code
   * @param out what it printed on stdout
   * @param err what it printed on stderr
   */
  record Run(int exit, String out, String err) {
    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  static Run run(String... args) {
    return runWithInput("", args);
  }

  static Run runWithInput(String stdin, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    InputStream in = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
    int exit = RpcxCli.run(in, new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Run(exit, out.toString(), err.toString());
  }
}
