package io.rpcx.server.internal.transport;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalIoHandler;
import io.netty.channel.local.LocalServerChannel;
import io.netty.util.concurrent.Future;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A connection's age timer lives no longer than its connection: a server with a maximum
 * connection age keeps no timer (nor the closed channel it holds) scheduled for the rest of the
 * age after clients go, or after a flood of connections refused on arrival.
 */
@Timeout(30)
class ConnectionAgeTest {

  @Test
  void theTimerOfAConnectionThatClosesIsCancelledWithIt() throws Exception {
    EventLoopGroup loops = new MultiThreadIoEventLoopGroup(1, LocalIoHandler.newFactory());
    try {
      LocalAddress address = new LocalAddress(ConnectionAgeTest.class);
      Channel listener =
          new ServerBootstrap()
              .group(loops)
              .channel(LocalServerChannel.class)
              .childHandler(new ChannelInboundHandlerAdapter())
              .bind(address)
              .sync()
              .channel();
      Channel channel =
          new Bootstrap()
              .group(loops)
              .channel(LocalChannel.class)
              .handler(new ChannelInboundHandlerAdapter())
              .connect(address)
              .sync()
              .channel();
      Future<?> timer =
          new ConnectionAge(Duration.ofMinutes(5), Duration.ofSeconds(30)).start(channel, null);
      assertFalse(timer.isDone(), "due in about 5 minutes");

      channel.close().sync();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!timer.isCancelled() && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertTrue(timer.isCancelled(), "the timer of the closed connection is still scheduled");
      listener.close().sync();
    } finally {
      loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
  }
}
