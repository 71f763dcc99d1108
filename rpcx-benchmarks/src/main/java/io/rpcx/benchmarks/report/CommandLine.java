package io.rpcx.benchmarks.report;

import java.util.List;

/**
 * The command that ran a tool of benchmarks.jar, as a shell line to run again from the repository
 * root: what a summary records beside its figures. Stateless.
 */
public final class CommandLine {
  private CommandLine() {}

  /** {@code java -cp rpcx-benchmarks/target/benchmarks.jar <main> <arguments>}, shell-quoted. */
  public static String of(Class<?> main, List<String> arguments) {
    StringBuilder line =
        new StringBuilder("java -cp rpcx-benchmarks/target/benchmarks.jar ").append(main.getName());
    for (String argument : arguments) {
      line.append(' ').append(shellWord(argument));
    }
    return line.toString();
  }

  /** {@code word} as a shell reads it back: as it is when plain, else single-quoted. */
  static String shellWord(String word) {
    return word.matches("[A-Za-z0-9_./:=,+@%-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
  }
}
