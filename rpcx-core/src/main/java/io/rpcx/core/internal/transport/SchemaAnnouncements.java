package io.rpcx.core.internal.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * The rule that a sender describes its POJO types on a connection before their first use
 * (docs/PROTOCOL.md, 1.6): a frame whose values need schemas goes after a SCHEMA frame the first
 * time this connection sends that method's schemas. The one implementation, for requests on a
 * client and replies on a server. One per connection; event loop only.
 */
public final class SchemaAnnouncements {
  /** The schema payloads sent, by identity: each method model has its own arrays. */
  private final Set<byte[]> sent = Collections.newSetFromMap(new IdentityHashMap<>());

  /**
   * Writes {@code frame} to {@code channel} (without flushing), preceded by a SCHEMA frame with
   * {@code schemas} if this connection has not sent them yet; {@code schemas} is {@code null} when
   * the frame's values need none.
   */
  public void write(Channel channel, byte[] schemas, ByteBuf frame) {
    if (schemas != null && sent.add(schemas)) {
      channel.write(ControlFrames.schema(channel.alloc(), schemas), channel.voidPromise());
    }
    channel.write(frame, channel.voidPromise());
  }
}
