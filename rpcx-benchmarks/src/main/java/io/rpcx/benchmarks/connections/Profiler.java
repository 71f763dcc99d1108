package io.rpcx.benchmarks.connections;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * async-profiler loaded into running JVMs with {@code jcmd <pid> JVMTI.agent_load}, which takes
 * one profiler command per load: CPU profiling of a window, then a flame graph and the collapsed
 * stacks of it. The library is async-profiler's Linux build ({@code rpcx-benchmarks/profile.sh}
 * and {@code connection-cost.sh} fetch it from Maven Central).
 */
final class Profiler {
  private final Path library;
  private final Path out;

  Profiler(Path library, Path out) {
    if (!Files.isRegularFile(library)) {
      throw new IllegalArgumentException("no async-profiler library at " + library);
    }
    this.library = library.toAbsolutePath();
    this.out = out.toAbsolutePath();
  }

  /** Starts CPU profiling in JVM {@code pid}. */
  void start(long pid) {
    agent(pid, "start,event=cpu,interval=1ms");
  }

  /** Stops profiling in JVM {@code pid}, writing {@code name}.html and {@code name}.collapsed. */
  void stop(long pid, String name) {
    try {
      Files.createDirectories(out);
    } catch (IOException e) {
      throw new IllegalStateException("cannot create " + out, e);
    }
    agent(pid, "dump,flamegraph,file=" + out.resolve(name + ".html"));
    agent(pid, "stop,collapsed,file=" + out.resolve(name + ".collapsed"));
  }

  private void agent(long pid, String command) {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    try {
      Process process =
          new ProcessBuilder(
                  // Quoted: jcmd's parser would read the '=' in the command as a named argument.
                  List.of(jcmd.toString(), String.valueOf(pid), "JVMTI.agent_load",
                      library.toString(), "\"" + command + "\""))
              .redirectErrorStream(true)
              .start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (process.waitFor() != 0 || !output.contains("return code: 0")) {
        throw new IllegalStateException("jcmd " + pid + " JVMTI.agent_load '" + command + "': "
            + output.trim());
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + jcmd, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running jcmd", e);
    }
  }
}
