package io.rpcx.benchmarks.netty;

import io.rpcx.benchmarks.api.BenchmarkServer;
import io.rpcx.benchmarks.api.StreamClient;
import io.rpcx.benchmarks.api.StreamSystem;
import io.rpcx.benchmarks.api.Versions;

/**
 * The floor of the streaming benchmark ({@code netty}): raw Netty on the transport RPCX picks,
 * length-prefixed frames with an {@code int} stream id, the server writing while the channel is
 * writable on its event loop, the client decoding each element into a {@code String} on its event
 * loop ({@link TextStreamServer}, {@link TextStreamClient}). What any stream of strings over Netty
 * costs at least: no serialization framework, no credit, no thread hand-off.
 */
public final class NettyStreamSystem implements StreamSystem {

  @Override
  public String name() {
    return "netty";
  }

  @Override
  public String description() {
    return "raw Netty " + Versions.get("netty") + " (" + NettyTransport.TRANSPORT.setting()
        + "), length-prefixed frames with stream ids, written while writable, one flush per turn,"
        + " elements decoded on the client's event loop";
  }

  @Override
  public BenchmarkServer startServer() throws InterruptedException {
    return new TextStreamServer();
  }

  @Override
  public StreamClient connect(int port) throws InterruptedException {
    return new TextStreamClient(port);
  }
}
