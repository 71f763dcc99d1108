package io.rpcx.cli;

import io.rpcx.http.RpcxHttp;
import java.time.Duration;
import picocli.CommandLine;

/**
 * Reads durations as a shell user types them: {@code 500ms}, {@code 10s}, {@code 1.5s}, {@code
 * 2m}; what the {@code rpcx-timeout} header of an HTTP call takes ({@link RpcxHttp#parseTimeout}).
 */
final class Durations implements CommandLine.ITypeConverter<Duration> {

  @Override
  public Duration convert(String text) {
    return parse(text);
  }

  /**
   * The duration {@code text} stands for.
   *
   * @throws CommandLine.TypeConversionException naming the text and the expected forms
   */
  static Duration parse(String text) {
    try {
      return RpcxHttp.parseTimeout(text);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.TypeConversionException(e.getMessage());
    }
  }
}
