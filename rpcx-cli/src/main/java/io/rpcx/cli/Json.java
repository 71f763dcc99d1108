package io.rpcx.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.rpcx.http.InvalidJsonException;
import io.rpcx.http.JsonMapping;

/** The JSON of the command line: read as RPCX reads it ({@link JsonMapping}), written pretty. */
final class Json {
  /** {@code "key": value}, arrays one element per line, as jq prints. */
  private static final ObjectWriter PRETTY =
      JsonMapping.mapper()
          .writer(
              new DefaultPrettyPrinter(
                      Separators.createDefaultInstance()
                          .withObjectFieldValueSpacing(Separators.Spacing.AFTER))
                  .withArrayIndenter(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE));

  private Json() {}

  /**
   * Parses {@code text}.
   *
   * @throws UserError naming {@code what}, the line and column, and the parser's complaint
   */
  static JsonNode parse(String text, String what) {
    try {
      return JsonMapping.parse(text, what);
    } catch (InvalidJsonException e) {
      throw UserError.usage(e.getMessage());
    }
  }

  /** {@code value} as pretty JSON, without a trailing newline. */
  static String write(Object value) {
    try {
      return PRETTY.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON of " + value, e);
    }
  }
}
