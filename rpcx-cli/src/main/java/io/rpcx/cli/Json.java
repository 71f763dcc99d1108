package io.rpcx.cli;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectWriter;

/** The JSON of the command line: read exactly (decimals keep their digits), written pretty. */
final class Json {
  static final ObjectMapper MAPPER =
      new ObjectMapper()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  /** {@code "key": value}, arrays one element per line, as jq prints. */
  private static final ObjectWriter PRETTY =
      MAPPER.writer(
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
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      String location = e.getLocation() == null ? ""
          : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
      String reason = e.getOriginalMessage();
      int detail = reason.indexOf(" (start marker");
      reason = (detail < 0 ? reason : reason.substring(0, detail)).lines().findFirst().orElse("");
      throw UserError.usage(what + ": not valid JSON" + location + ": " + reason);
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
