package io.rpcx.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rpcx.core.reflection.MethodDescription;
import io.rpcx.core.reflection.ParameterDescription;
import io.rpcx.core.reflection.ServiceDescription;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code rpcx call} and {@code rpcx bench} refuse every stream method with one line. */
class StreamRefusalTest {

  private static String refusal(String resultType) {
    MethodDescription upload =
        new MethodDescription(
            "upload",
            "upload",
            List.of(
                new ParameterDescription("name", "string"),
                new ParameterDescription("chunks", "stream<bytes>")),
            resultType,
            false,
            List.of(),
            false,
            0,
            false);
    ServiceDescription files = new ServiceDescription("files", List.of(upload), List.of());
    return assertThrows(
            UserError.class,
            () -> CallInput.encode(files, upload, null, "[\"a\"]", Duration.ofSeconds(1)))
        .getMessage();
  }

  @Test
  void aClientStreamAndABidirectionalStreamAreRefusedNamingTheirStreamParameter() {
    assertEquals(
        "files/upload is a client stream (its parameter chunks is stream<bytes>); rpcx calls"
            + " methods with one request and one reply only: call it from Java"
            + " (docs/STREAMING.md)",
        refusal("int64"));
    assertEquals(
        "files/upload is a bidirectional stream (its parameter chunks is stream<bytes>); rpcx"
            + " calls methods with one request and one reply only: call it from Java"
            + " (docs/STREAMING.md)",
        refusal("stream<string>"));
  }
}
