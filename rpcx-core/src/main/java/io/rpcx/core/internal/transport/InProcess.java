package io.rpcx.core.internal.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalIoHandler;
import io.netty.channel.local.LocalServerChannel;
import io.rpcx.core.InvalidSettingException;
import java.net.SocketAddress;

/**
 * The in-process transport: Netty's local channels, which hand each written buffer to the peer
 * channel in the same JVM instead of a socket. The pipeline above them (preface, framing, SCHEMA,
 * codecs) is the one TCP connections have, so tests run the whole RPCX stack without the network.
 * A server listens under a name, unique in the JVM while it runs; a client connects to that name.
 */
public final class InProcess {
  private InProcess() {}

  /** The address a server named {@code name} listens on, and clients connect to. */
  public static SocketAddress address(String name) {
    return new LocalAddress(name);
  }

  /** A new event loop group of {@code threads} daemon threads named {@code name-N}. */
  public static EventLoopGroup newGroup(int threads, String name) {
    return new MultiThreadIoEventLoopGroup(
        threads, NetworkThreads.factory(name), LocalIoHandler.newFactory());
  }

  /** A client bootstrap on local channels in {@code group} (one from {@link #newGroup}). */
  public static Bootstrap client(EventLoopGroup group) {
    return new Bootstrap()
        .group(group)
        .channel(LocalChannel.class)
        .option(ChannelOption.ALLOCATOR, Transports.ALLOCATOR);
  }

  /** A server bootstrap on local channels, accepting in {@code acceptor}. */
  public static ServerBootstrap server(EventLoopGroup acceptor, EventLoopGroup workers) {
    return new ServerBootstrap()
        .group(acceptor, workers)
        .channel(LocalServerChannel.class)
        .childOption(ChannelOption.ALLOCATOR, Transports.ALLOCATOR);
  }

  /**
   * Checks an in-process name: what {@code inProcess(name)} of both builders accepts.
   *
   * @throws IllegalArgumentException unless it is 1 to 200 printable ASCII characters, no spaces
   */
  public static String checkName(String name) {
    if (name == null) {
      throw new NullPointerException("inProcess name");
    }
    if (name.isEmpty() || name.length() > 200 || !name.chars().allMatch(c -> c > ' ' && c < 127)) {
      throw new InvalidSettingException(
          "inProcess name", name, "1 to 200 printable ASCII characters, no spaces");
    }
    return name;
  }
}
