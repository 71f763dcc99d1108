package io.rpcx.benchmarks.connections;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Profile samples are counted once each, by the first thing their stack was doing. */
class CpuBreakdownTest {

  @Test
  void eachStackCountsOnceInItsFirstCategory(@TempDir Path dir) throws Exception {
    Path collapsed = dir.resolve("p.collapsed");
    Files.write(
        collapsed,
        List.of(
            "java/lang/Thread.run;io/netty/channel/epoll/EpollIoHandler.run;sendto;"
                + "entry_SYSCALL_64_[k];__sys_sendto_[k];tcp_sendmsg_[k];try_to_wake_up_[k] 30",
            "java/lang/Thread.run;io/netty/channel/epoll/EpollIoHandler.run;epoll_wait;"
                + "do_epoll_wait_[k] 20",
            "java/lang/Thread.run;io/rpcx/server/internal/dispatch/WorkerPool.execute;"
                + "Unsafe_Unpark;futex_wake_[k] 25",
            "java/lang/Thread.run;io/rpcx/core/internal/protocol/RequestEnvelope.parse 15",
            "G1ParScanThreadState::trim_queue 10"));
    Map<String, Double> shares = CpuBreakdown.of(collapsed);
    assertEquals(100, CpuBreakdown.samples(collapsed));
    assertEquals(30.0, shares.get("kernel: TCP send (and loopback delivery)"));
    assertEquals(25.0, shares.get("kernel: futex, eventfd (thread wake-ups)"));
    assertEquals(20.0, shares.get("kernel: epoll_wait"));
    assertEquals(15.0, shares.get("codec, envelope"));
    assertEquals(10.0, shares.get("GC"));
    assertEquals("kernel: TCP send (and loopback delivery)", shares.keySet().iterator().next());
  }
}
