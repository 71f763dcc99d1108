package io.rpcx.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.rpcx.client.RawCall;
import io.rpcx.core.reflection.MethodDescription;
import io.rpcx.core.reflection.ParameterDescription;
import io.rpcx.core.reflection.ServiceDescription;
import io.rpcx.http.InvalidJsonException;
import io.rpcx.http.JsonMapping;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The arguments of {@code rpcx call} and {@code rpcx bench}: a JSON array with one element per
 * parameter (or an object of them by name), given inline, with {@code -d @file.json}, or on stdin
 * ({@code -} or {@code -d @-}), checked against the method's description and encoded as a {@link
 * RawCall} with RPCX's one JSON mapping ({@link JsonMapping}).
 */
final class CallInput {
  private CallInput() {}

  /** {@code SERVICE/METHOD} split at its last slash. */
  static String[] serviceAndMethod(String text) {
    int slash = text.lastIndexOf('/');
    if (slash <= 0 || slash == text.length() - 1) {
      throw UserError.usage(
          "bad method '" + text + "' (expected: SERVICE/METHOD, such as orders/findOrder)");
    }
    return new String[] {text.substring(0, slash), text.substring(slash + 1)};
  }

  /**
   * The JSON text of the arguments: {@code inline}, else {@code data} ({@code @file}, {@code @-}
   * for stdin, or JSON), else {@code []}.
   */
  static String text(String inline, String data, InputStream stdin) {
    if (inline != null && data != null) {
      throw UserError.usage("give the arguments either inline or with -d, not both");
    }
    String source = inline != null ? inline : data;
    if (source == null) {
      return "[]";
    }
    if (source.equals("-") || source.equals("@-")) {
      try {
        return new String(stdin.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw UserError.usage("cannot read the arguments from stdin: " + e.getMessage());
      }
    }
    if (source.startsWith("@")) {
      Path file = Path.of(source.substring(1));
      try {
        return Files.readString(file);
      } catch (NoSuchFileException e) {
        throw UserError.usage("-d " + source + ": no such file " + file);
      } catch (IOException e) {
        throw UserError.usage("-d " + source + ": cannot read " + file + ": " + e.getMessage());
      }
    }
    return source;
  }

  /**
   * The call of {@code method} of {@code service} with the arguments {@code json}.
   *
   * @throws UserError if the JSON is not an array of one value per parameter, each of its type
   */
  static RawCall encode(
      ServiceDescription service,
      MethodDescription method,
      JsonMapping mapping,
      String json,
      Duration timeout) {
    for (ParameterDescription parameter : method.parameters()) {
      if (parameter.type().startsWith("stream<")) {
        throw UserError.usage(service.name() + "/" + method.name() + " is a "
            + (method.resultType().startsWith("stream<") ? "bidirectional" : "client")
            + " stream (its parameter " + parameter.name() + " is " + parameter.type() + "); rpcx"
            + " calls methods with one request and one reply only: call it from Java"
            + " (docs/STREAMING.md)");
      }
    }
    if (method.resultType().startsWith("stream<")) {
      throw UserError.usage(service.name() + "/" + method.name() + " is a server stream (it returns "
          + method.resultType() + "); rpcx calls methods with one reply only: call it from Java"
          + " (docs/STREAMING.md)");
    }
    RawCall.Builder call =
        RawCall.builder(service.name(), method.name())
            .result(method.resultType())
            .timeout(timeout)
            .idempotent(method.idempotent());
    try {
      List<JsonNode> arguments = mapping.arguments(method, Json.parse(json, "arguments"));
      List<ParameterDescription> parameters = method.parameters();
      for (int i = 0; i < parameters.size(); i++) {
        ParameterDescription parameter = parameters.get(i);
        call.argument(
            parameter.type(),
            mapping.encode(
                arguments.get(i), parameter.type(), "argument '" + parameter.name() + "'"));
      }
    } catch (InvalidJsonException e) {
      throw UserError.usage(e.getMessage());
    }
    return call.build();
  }

}
