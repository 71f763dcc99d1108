package io.rpcx.http;

import io.rpcx.core.InvalidSettingException;
import io.rpcx.core.reflection.ReflectionService;
import io.rpcx.http.internal.HttpJsonHandler;
import io.rpcx.http.internal.Timeouts;
import io.rpcx.server.http.HttpHandler;
import io.rpcx.server.http.HttpService;
import java.time.Duration;

/**
 * HTTP/JSON on an RPCX server's port: every published method answers {@code POST
 * /<service>/<method>} with its arguments as JSON ({@link JsonMapping}), through the server's own
 * dispatcher, interceptors, limits, deadlines and metrics; optionally an OpenAPI 3.1 document of
 * them ({@code GET /openapi.json}) and a service console for the browser. docs/HTTP.md describes
 * the mapping, the console and the security settings.
 *
 * <pre>{@code
 * RpcxServer server = RpcxServer.builder()
 *     .service(new OrderServiceImpl())
 *     .reflection(true)                     // what the console and OpenAPI show is its to guard
 *     .http(RpcxHttp.builder().openApi(true).console(true).build())
 *     .build()
 *     .start();
 * }</pre>
 *
 * <pre>
 * curl -H 'content-type: application/json' -d '[42]' http://localhost:9000/orders/findOrder
 * </pre>
 *
 * <p>Everything is off until asked for: the server's builder turns HTTP on ({@code
 * RpcxServer.Builder.http}, and {@code httpPort} for a port of its own), and this builder the
 * document and the console. Immutable and thread-safe; one may serve several servers.
 */
public final class RpcxHttp implements HttpService {
  /** The default largest request body: 1 MiB. */
  public static final int DEFAULT_MAX_REQUEST_BYTES = 1 << 20;

  private final boolean openApi;
  private final boolean console;
  private final String consolePath;
  private final int maxRequestBytes;

  private RpcxHttp(Builder builder) {
    this.openApi = builder.openApi;
    this.console = builder.console;
    this.consolePath = builder.consolePath;
    this.maxRequestBytes = builder.maxRequestBytes;
  }

  /** A builder of HTTP/JSON alone: no document, no console. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The duration {@code text} stands for, as the {@code rpcx-timeout} header of a call (and the
   * command line's {@code --timeout}) gives it: {@code 500ms}, {@code 10s}, {@code 1.5s}, {@code
   * 2m}, {@code 1h}, or ISO-8601's {@code PT30S}; positive.
   *
   * @throws IllegalArgumentException naming the text and the forms taken, if it is not one
   */
  public static Duration parseTimeout(String text) {
    Duration duration = Timeouts.parse(text);
    if (duration == null) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a duration (expected: " + Timeouts.EXPECTED + ")");
    }
    return duration;
  }

  /** Whether {@code GET /openapi.json} answers. */
  public boolean openApi() {
    return openApi;
  }

  /** Whether the console answers at {@link #consolePath()}. */
  public boolean console() {
    return console;
  }

  /** Where the console's page is: a path that starts and ends with {@code /}. */
  public String consolePath() {
    return consolePath;
  }

  @Override
  public int maxRequestBytes() {
    return maxRequestBytes;
  }

  /**
   * The handler of a server that starts.
   *
   * @throws IllegalStateException if the document or the console is on and the server does not
   *     publish its reflection service, whose calls guard them
   */
  @Override
  public HttpHandler start(ReflectionService services) {
    return HttpJsonHandler.start(services, openApi, console, consolePath);
  }

  /**
   * Configures an {@link RpcxHttp}. Not thread-safe; each setter checks its value at once ({@link
   * InvalidSettingException} naming the setting, the value and what it accepts).
   */
  public static final class Builder {
    private boolean openApi;
    private boolean console;
    private String consolePath = "/";
    private int maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;

    private Builder() {}

    /**
     * Whether {@code GET /openapi.json} answers with an OpenAPI 3.1 document of every method
     * callable over HTTP, its POJOs and records as components (default off). It shows the shape
     * of the services, so it is answered only to callers the server's interceptors let call its
     * reflection service ({@code rpcx.reflection.v1.Reflection/listServices}): the server must
     * publish it ({@code reflection(true)}), and its authentication guards the document.
     */
    public Builder openApi(boolean openApi) {
      this.openApi = openApi;
      return this;
    }

    /**
     * Whether a service console answers at {@link #consolePath} (default off): a page that lists
     * the services and methods with their types, shows example arguments, calls a method and
     * shows the reply, the status and the time taken. Plain HTML, JavaScript and CSS served by
     * the server, nothing fetched from elsewhere. It reads the OpenAPI document, so it is guarded
     * as that is (and needs {@code reflection(true)}); a token typed into the page is sent as
     * {@code authorization: Bearer ...}.
     */
    public Builder console(boolean console) {
      this.console = console;
      return this;
    }

    /**
     * Where the console's page is (default {@code /}); its script and style sheet are beside it.
     * A path that starts and ends with {@code /} and holds no other slash-separated part than
     * letters, digits, {@code -}, {@code _} and {@code .}.
     */
    public Builder consolePath(String consolePath) {
      if (consolePath == null
          || !consolePath.matches("/([A-Za-z0-9._-]+/)*")
          || consolePath.contains("/./")
          || consolePath.contains("/../")) {
        throw new InvalidSettingException(
            "consolePath", consolePath, "a path such as / or /console/ (letters, digits, - _ .)");
      }
      this.consolePath = consolePath;
      return this;
    }

    /**
     * The largest request body read, in bytes (default 1 MiB): a larger one is answered 413
     * naming the limit, without being read.
     */
    public Builder maxRequestBytes(int maxRequestBytes) {
      if (maxRequestBytes < 1) {
        throw new InvalidSettingException(
            "maxRequestBytes", maxRequestBytes, "a number of bytes >= 1");
      }
      this.maxRequestBytes = maxRequestBytes;
      return this;
    }

    /** The configuration. */
    public RpcxHttp build() {
      return new RpcxHttp(this);
    }
  }
}
