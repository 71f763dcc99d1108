package io.rpcx.benchmarks.rpcx;

import io.rpcx.annotation.RPCXClient;
import java.util.concurrent.Flow;

/**
 * The streaming benchmark's service as an RPCX interface: one server-stream method, the same
 * signature on the client and the server. No {@code @Method(timeoutMillis)}, so the stream has no
 * deadline of its own (the client's default timeout does not apply to streams).
 */
@RPCXClient(name = "streams")
public interface StreamService {

  /**
   * {@code count} elements, each the ASCII text of {@code length} characters ({@code
   * Payloads.text}).
   */
  Flow.Publisher<String> texts(int count, int length);
}
