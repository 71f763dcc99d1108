package io.rpcx.benchmarks.stress;

import io.rpcx.benchmarks.report.ResultsFolder;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The stress tool's settings, from its command line. Defaults are the paper's experiment; {@code
 * --quick} swaps in a small grid that finishes in a few minutes on a 2-core machine. Immutable.
 */
final class StressOptions {
  static final String PAPER_THREADS = "10:990:100";
  static final String PAPER_REQUESTS = "10:900:200";
  static final String QUICK_THREADS = "10,110,210";
  static final String QUICK_REQUESTS = "10,110,210";

  static final String USAGE =
      String.join(
          "\n",
          "Usage: java -cp benchmarks.jar io.rpcx.benchmarks.stress.StressTool [options]",
          "",
          "Runs the RPCX paper's stress experiment: for each system, every (threads x requests per"
              + " thread)",
          "cell of the grid is run several times with the small echo call; the first run of each"
              + " cell is",
          "dropped; TPS = threads * requests / seconds.",
          "",
          "  --systems a,b,c        systems to test (default: rpcx,grpc,feign; also: dubbo, netty)",
          "  --threads SPEC         client threads: from:to:step or a,b,c (default: "
              + PAPER_THREADS
              + ")",
          "  --requests SPEC        requests per thread (default: " + PAPER_REQUESTS + ")",
          "  --runs N               runs per cell, the first one dropped (default: 10)",
          "  --cell-timeout SECONDS time limit of one cell, all its runs together (default: 600)",
          "  --warmup N             echo calls per system before its grid, not recorded (default:"
              + " 2000)",
          "  --out DIR              output directory (default: a new folder",
          "                         rpcx-benchmarks/results/<date>-stress of this checkout,",
          "                         which git ignores)",
          "  --quick                threads "
              + QUICK_THREADS
              + ", requests "
              + QUICK_REQUESTS
              + ", 3 runs, 60 s cell limit, 1000 warm-up calls",
          "                         (options given after --quick override it)",
          "  --help                 this text");

  final List<String> systems;
  final List<Integer> threads;
  final List<Integer> requests;
  final int runs;
  final Duration cellTimeout;
  final int warmupCalls;
  final Path out;
  final boolean quick;
  /** The command line as given, for the summary. */
  final List<String> arguments;

  private StressOptions(Builder b, String... arguments) {
    this.systems = Collections.unmodifiableList(Arrays.asList(b.systems.split(",")));
    this.threads = Grid.parse(b.threads);
    this.requests = Grid.parse(b.requests);
    this.runs = b.runs;
    this.cellTimeout = Duration.ofSeconds(b.cellTimeoutSeconds);
    this.warmupCalls = b.warmupCalls;
    this.out =
        b.out != null
            ? Paths.get(b.out)
            : ResultsFolder.newFolder(b.quick ? "stress-quick" : "stress");
    this.quick = b.quick;
    this.arguments = List.of(arguments);
  }

  /**
   * Parses the command line; throws {@link IllegalArgumentException} with the problem and {@link
   * #USAGE}.
   */
  static StressOptions parse(String... args) {
    Builder b = new Builder();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--quick":
          b.quick = true;
          b.threads = QUICK_THREADS;
          b.requests = QUICK_REQUESTS;
          b.runs = 3;
          b.cellTimeoutSeconds = 60;
          b.warmupCalls = 1000;
          break;
        case "--systems":
          b.systems = value(args, ++i, arg);
          break;
        case "--threads":
          b.threads = value(args, ++i, arg);
          break;
        case "--requests":
          b.requests = value(args, ++i, arg);
          break;
        case "--runs":
          b.runs = number(args, ++i, arg, 2);
          break;
        case "--cell-timeout":
          b.cellTimeoutSeconds = number(args, ++i, arg, 1);
          break;
        case "--warmup":
          b.warmupCalls = number(args, ++i, arg, 0);
          break;
        case "--out":
          b.out = value(args, ++i, arg);
          break;
        default:
          throw new IllegalArgumentException("unknown option '" + arg + "'\n\n" + USAGE);
      }
    }
    return new StressOptions(b, args);
  }

  /** Number of cells per system. */
  int cellsPerSystem() {
    return threads.size() * requests.size();
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value\n\n" + USAGE);
    }
    return args[i];
  }

  private static int number(String[] args, int i, String option, int min) {
    String text = value(args, i, option);
    int n;
    try {
      n = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          option + ": '" + text + "' (expected: an integer >= " + min + ")");
    }
    if (n < min) {
      throw new IllegalArgumentException(option + ": " + n + " (expected: >= " + min + ")");
    }
    return n;
  }

  private static final class Builder {
    String systems = "rpcx,grpc,feign";
    String threads = PAPER_THREADS;
    String requests = PAPER_REQUESTS;
    int runs = 10;
    int cellTimeoutSeconds = 600;
    int warmupCalls = 2000;
    String out;
    boolean quick;
  }
}
