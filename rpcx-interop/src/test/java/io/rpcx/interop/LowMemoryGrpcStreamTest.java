package io.rpcx.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import interop.InteropGrpc;
import interop.InteropOuterClass.ChunksReply;
import interop.InteropOuterClass.ChunksRequest;
import java.lang.management.ManagementFactory;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A slow gRPC reader of a 1 GiB server stream, with the server and the reader in one JVM of 256
 * MiB (this class runs alone under {@code -Xmx256m}, the {@code low-memory} execution): HTTP/2's
 * flow control, tied to the publisher's demand, keeps the server from making more than its reader
 * takes, so the stream ends whole instead of the JVM running out of memory.
 */
@Timeout(300)
class LowMemoryGrpcStreamTest {
  private static final long GIB = 1L << 30;
  private static final int CHUNK = 1 << 20;

  @Test
  void aSlowReaderOfAGibibyteStreamNeverMakesTheServerBuffer() throws Exception {
    long maxHeap = Runtime.getRuntime().maxMemory();
    // Picked by -Dtest, it runs in the default execution too: there it proves nothing.
    assumeTrue(maxHeap <= 300L << 20, "runs under -Xmx256m (the low-memory execution), not " + (maxHeap >> 20) + " MiB");
    InteropServiceImpl implementation = new InteropServiceImpl();
    try (GrpcPeer peer = GrpcPeer.start(InteropServer.builder(0, implementation))) {
      Iterator<ChunksReply> chunks =
          InteropGrpc.newBlockingStub(peer.channel)
              .withDeadlineAfter(240, TimeUnit.SECONDS)
              .chunks(ChunksRequest.newBuilder().setChunkSize(CHUNK).setTotal(GIB).build());
      long read = 0;
      long messages = 0;
      while (chunks.hasNext()) {
        read += chunks.next().getValue().size();
        if (++messages == 8) {
          // The reader stalls: an unbounded server would make the rest of the gibibyte now.
          Thread.sleep(3_000);
          System.gc();
          long used = usedHeap();
          assertTrue(used < 128L << 20, "heap in use while the reader stalls: " + (used >> 20) + " MiB");
        }
      }
      assertEquals(GIB, read);
      assertEquals(GIB / CHUNK, messages);
    }
  }

  private static long usedHeap() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
