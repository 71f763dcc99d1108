package io.rpcx.micrometer;

import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.Tag;
import io.micrometer.observation.Observation;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CompletionException;

/**
 * What rpcx-micrometer names: the low-cardinality key values of the RPC timers (shared by the
 * conventions and the meters), the binders' tags, and the metadata keys trace headers travel under.
 */
final class RpcTags {
  /** {@link #serverUri}'s, by server. */
  private static final ConcurrentMap<String, String> SERVER_URIS = new ConcurrentHashMap<>();

  private RpcTags() {}

  /**
   * A client attempt's: method and server ({@code host:port}, or {@code ""} if none was chosen);
   * with {@code status}, once the attempt ended, its status and {@code error.type}.
   */
  static KeyValues client(String method, String server, StatusCode status) {
    int colon = server.lastIndexOf(':');
    KeyValues values =
        KeyValues.of(
            RpcxKeys.RPC_SYSTEM_NAME,
            RpcxKeys.SYSTEM,
            RpcxKeys.RPC_METHOD,
            method,
            RpcxKeys.SERVER_ADDRESS,
            colon < 0 ? "unknown" : server.substring(0, colon),
            RpcxKeys.SERVER_PORT,
            colon < 0 ? "unknown" : server.substring(colon + 1));
    return status == null ? values : values.and(outcome(status));
  }

  /** A served call's: method, status and {@code error.type}. */
  static KeyValues server(String method, StatusCode status) {
    return KeyValues.of(RpcxKeys.RPC_SYSTEM_NAME, RpcxKeys.SYSTEM, RpcxKeys.RPC_METHOD, method)
        .and(outcome(status));
  }

  /**
   * A stream call's message counts as high-cardinality key values: those sent if it {@code sends}
   * a stream from this side, those received if it {@code receives} one.
   */
  static KeyValues streamMessages(boolean sends, long sent, boolean receives, long received) {
    KeyValues values = KeyValues.empty();
    if (sends) {
      values = values.and(RpcxKeys.STREAM_MESSAGES_SENT, Long.toString(sent));
    }
    if (receives) {
      values = values.and(RpcxKeys.STREAM_MESSAGES_RECEIVED, Long.toString(received));
    }
    return values;
  }

  /** {@code error.type} is {@code none} on success: every timer of a name has the same keys. */
  private static KeyValues outcome(StatusCode status) {
    return KeyValues.of(
        RpcxKeys.RPC_STATUS_CODE,
        status.name(),
        RpcxKeys.ERROR_TYPE,
        status == StatusCode.OK ? RpcxKeys.NONE : status.name());
  }

  /**
   * What a served call's failure is to its client: an {@link RpcxException}'s status, or {@link
   * StatusCode#REMOTE_FAILURE} for what the implementation threw (RPCX hands it over wrapped) or an
   * interceptor's bug.
   */
  static StatusCode status(Throwable failure) {
    Throwable cause = unwrap(failure);
    return cause instanceof RpcxException
        ? ((RpcxException) cause).status()
        : StatusCode.REMOTE_FAILURE;
  }

  /** The exception a served call's failure stands for, to record as its error. */
  static Throwable cause(Throwable failure) {
    Throwable cause = unwrap(failure);
    return cause instanceof RpcxException || cause.getCause() == null ? cause : cause.getCause();
  }

  private static Throwable unwrap(Throwable failure) {
    Throwable cause = failure;
    while (cause instanceof CompletionException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }

  /** {@code tags} as an immutable list, for a binder to add to each of its meters. */
  static List<Tag> tagList(Iterable<Tag> tags) {
    List<Tag> list = new ArrayList<>();
    tags.forEach(list::add);
    return List.copyOf(list);
  }

  /**
   * {@code rpcx://host:port}, made once per server: the remote address of a client observation is
   * a URI (Micrometer Tracing reads a span's peer from it). Servers past {@link
   * MethodValues#MAX_SERVERS} start the cache again, as discovery may bring new ones for as long as
   * a client lives.
   */
  static String serverUri(String server) {
    String uri = SERVER_URIS.get(server);
    if (uri == null) {
      if (SERVER_URIS.size() >= MethodValues.MAX_SERVERS) {
        SERVER_URIS.clear();
      }
      uri = "rpcx://" + server;
      SERVER_URIS.put(server, uri);
    }
    return uri;
  }

  /** Whether {@code context} is that of an RPCX call's observation, client's or server's. */
  static boolean isRpcxCall(Observation.Context context) {
    return context instanceof RpcxClientContext || context instanceof RpcxServerContext;
  }

  /** RPCX metadata keys are lower-case; propagators may use any case ({@code X-B3-TraceId}). */
  static String metadataKey(String key) {
    return key.toLowerCase(Locale.ROOT);
  }
}
