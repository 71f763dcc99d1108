package io.rpcx.internal.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import org.junit.jupiter.api.Test;

/** Jazzer's notes on hooks and instrumented classes are dropped; everything else gets through. */
class JazzerOutputTest {

  @Test
  void onlyJazzersInfoLinesAreDropped() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream err =
        JazzerOutput.withoutJazzerInfo(new PrintStream(bytes, true, Charset.defaultCharset()));
    // As Jazzer writes them: the prefix, then the rest of the line.
    err.print("INFO: ");
    err.println("Loaded 834 hooks from com.code_intelligence.jazzer.runtime.TraceCmpHooks");
    err.print("INFO: ");
    err.println("Instrumented io.rpcx.core.Frames with custom hooks only (took 3 ms, size +0%)");
    err.print("WARN: ");
    err.println("a finding Jazzer warns of");
    err.println("INFO: anything else");
    err.print("a line not ended yet");
    err.flush();
    assertEquals(
        "WARN: a finding Jazzer warns of\nINFO: anything else\na line not ended yet",
        bytes.toString(Charset.defaultCharset()).replace(System.lineSeparator(), "\n"));
  }
}
