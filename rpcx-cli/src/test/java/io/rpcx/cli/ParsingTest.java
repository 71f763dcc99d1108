package io.rpcx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What the command line reads besides JSON: addresses and durations. */
class ParsingTest {

  @Test
  void addressesAreHostColonPortWithBracketsForIpv6() {
    assertEquals(new Address("localhost", 9000), Address.parse("localhost:9000"));
    assertEquals(new Address("::1", 9000), Address.parse("[::1]:9000"));
    assertEquals("[::1]:9000", Address.parse("[::1]:9000").toString());
    for (String bad : List.of("localhost", ":9000", "host:0", "host:65536", "host:http")) {
      UserError error = assertThrows(UserError.class, () -> Address.parse(bad));
      assertEquals(
          "bad address '" + bad + "' (expected: HOST:PORT, such as localhost:9000)",
          error.getMessage());
      assertEquals(ExitCodes.USAGE, error.exitCode());
    }
  }

  @Test
  void durationsAreWhatAShellUserTypes() {
    assertEquals(Duration.ofMillis(500), Durations.parse("500ms"));
    assertEquals(Duration.ofMillis(1500), Durations.parse("1.5s"));
    assertEquals(Duration.ofMinutes(2), Durations.parse("2m"));
    assertEquals(Duration.ofHours(1), Durations.parse("1h"));
    assertEquals(Duration.ofSeconds(30), Durations.parse("PT30S"));
    for (String bad : List.of("0s", "ten", "-1s", "5", "9999999999999999h")) {
      CommandLine.TypeConversionException error =
          assertThrows(CommandLine.TypeConversionException.class, () -> Durations.parse(bad));
      assertEquals(
          "'" + bad + "' is not a duration (expected: such as 500ms, 10s, 1.5s, 2m or PT30S)",
          error.getMessage());
    }
  }
}
