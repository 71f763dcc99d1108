package io.rpcx.internal.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.util.List;

/**
 * Keeps Jazzer's progress notes out of a build's output. Its agent, once a {@code @FuzzTest}
 * installed it, prints an INFO line for each set of hooks it loads and for each class it
 * instruments, on stderr, for the rest of the JVM (the next test classes' classes too): hundreds of
 * lines per module. Its warnings, errors and findings still print, and so does everything else.
 * Call {@link #quiet()} in a fuzz test class's static initializer.
 */
public final class JazzerOutput {
  /** The lines dropped start with one of these. */
  private static final List<String> DROPPED = List.of("INFO: Loaded ", "INFO: Instrumented ");

  private static boolean quiet;

  private JazzerOutput() {}

  /** From now on, until the JVM exits, stderr drops Jazzer's INFO lines. */
  public static synchronized void quiet() {
    if (!quiet) {
      quiet = true;
      System.setErr(withoutJazzerInfo(System.err));
    }
  }

  /** {@code err}, but for Jazzer's lines "INFO: Loaded ..." and "INFO: Instrumented ...". */
  static PrintStream withoutJazzerInfo(PrintStream err) {
    Charset charset = Charset.defaultCharset();
    return new PrintStream(new WithoutJazzerInfo(err, charset), true, charset);
  }

  /** Passes whole lines on to {@code out}, but those Jazzer writes as "INFO: ...". */
  private static final class WithoutJazzerInfo extends OutputStream {
    private final PrintStream out;
    private final Charset charset;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    WithoutJazzerInfo(PrintStream out, Charset charset) {
      this.out = out;
      this.charset = charset;
    }

    @Override
    public synchronized void write(int b) throws IOException {
      line.write(b);
      if (b == '\n') {
        if (!dropped(line.toString(charset))) {
          line.writeTo(out);
          out.flush();
        }
        line.reset();
      }
    }

    /** Writes what is held, unless it is, or may become, a line to drop. */
    @Override
    public synchronized void flush() throws IOException {
      String text = line.toString(charset);
      if (!text.isEmpty()
          && !dropped(text)
          && DROPPED.stream().noneMatch(prefix -> prefix.startsWith(text))) {
        line.writeTo(out);
        out.flush();
        line.reset();
      }
    }

    private static boolean dropped(String text) {
      return DROPPED.stream().anyMatch(text::startsWith);
    }
  }
}
