package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.rpcx.core.internal.protocol.FrameType;
import io.rpcx.core.internal.protocol.Preface;
import io.rpcx.core.internal.protocol.proto.GoAway;
import io.rpcx.core.internal.protocol.proto.StatusCode;
import io.rpcx.core.internal.transport.InboundBudget;
import io.rpcx.internal.testing.LogCapture;
import io.rpcx.server.RpcxServer;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One hundred peers each send a legal 16 MiB frame and stop 1 KiB short of its end. Each frame is
 * within the limit; their sum is six times the direct memory of this JVM (surefire runs the class
 * with {@code -Xmx256m -XX:MaxDirectMemorySize=256m}). The server's inbound budget (a quarter of
 * that, 64 MiB) holds them back and closes the ones that hold the most the longest, telling each
 * why, until those left fit in it; a bystander on its own connection sees no error, and nothing
 * runs out of memory.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LowMemoryBudgetTest {
  private static final int ATTACKERS = 100;
  private static final int FRAME = 16 * 1024 * 1024;
  private static final ConcurrentLinkedQueue<Socket> OPEN = new ConcurrentLinkedQueue<>();

  @Test
  void peersParkingLargeIncompleteFramesAreHeldBackAndClosedWhileABystanderIsServed()
      throws Exception {
    assertTrue(
        Runtime.getRuntime().maxMemory() <= 300L * 1024 * 1024,
        "run with -Xmx256m: " + Runtime.getRuntime().maxMemory());
    ConcurrentLinkedQueue<Throwable> outOfMemory = new ConcurrentLinkedQueue<>();
    Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
    Thread.setDefaultUncaughtExceptionHandler((thread, e) -> outOfMemory.add(e));
    RpcxServer server =
        RpcxServer.builder().bindAddress("127.0.0.1").service(new EchoService.Impl()).build().start();
    List<Thread> attackers = new ArrayList<>();
    AtomicInteger toldWhy = new AtomicInteger();
    ConcurrentLinkedQueue<String> reasons = new ConcurrentLinkedQueue<>();
    CountDownLatch closed = new CountDownLatch(ATTACKERS);
    try (LogCapture rpcxLogs = LogCapture.rpcx();
        LogCapture nettyLogs = LogCapture.of("io.netty");
        Bystander bystander = new Bystander(server.port())) {
      for (int i = 0; i < ATTACKERS; i++) {
        Thread attacker =
            new Thread(() -> park(server.port(), toldWhy, reasons, closed), "attacker-" + i);
        attacker.setDaemon(true);
        attacker.start();
        attackers.add(attacker);
      }
      // As many parked frames as the budget holds may stay; every other attacker is closed.
      long fit = InboundBudget.defaultLimit() / (FRAME - 2 - 1024);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (closed.getCount() > fit && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertTrue(closed.getCount() <= fit, closed.getCount() + " attackers left open, " + fit + " fit");
      bystander.awaitProgress();
      assertEquals(0, bystander.errors(), "bystander errors");
      assertEquals(List.of(), List.copyOf(outOfMemory));
      List<String> thrown = new ArrayList<>(rpcxLogs.throwableClasses());
      thrown.addAll(nettyLogs.throwableClasses());
      assertEquals(List.of(), thrown, "exceptions logged");
      rpcxLogs.assertOnly(
          Level.WARN,
          "WARN Closing connection from /127\\.0\\.0\\.1:\\d+: the \\d+ bytes this server holds for"
              + " incoming frames are used up, and this connection held \\d+ bytes of an incomplete"
              + " frame for \\d+ ms");
      nettyLogs.assertOnly(Level.WARN);
      assertTrue(toldWhy.get() > 0, "attackers told why with GOAWAY");
      String reason = reasons.peek();
      assertTrue(
          reason.matches(
              "the \\d+ bytes this server holds for incoming frames are used up, and this"
                  + " connection held \\d+ bytes of an incomplete frame for \\d+ ms"),
          reason);
    } finally {
      for (Socket socket : OPEN) {
        socket.close();
      }
      Thread.setDefaultUncaughtExceptionHandler(previous);
      server.stop();
    }
  }

  /** Sends all of a 16 MiB frame but its last KiB, then waits to be closed. */
  private static void park(
      int port, AtomicInteger toldWhy, ConcurrentLinkedQueue<String> reasons, CountDownLatch closed) {
    try (Socket socket = new Socket()) {
      OPEN.add(socket);
      socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
      socket.setSoTimeout(100_000);
      OutputStream out = socket.getOutputStream();
      DataInputStream in = new DataInputStream(socket.getInputStream());
      out.write(Preface.bytes());
      in.readFully(new byte[Preface.LENGTH]);
      out.write(new byte[] {0x01, 0, 0, 0, FrameType.REQUEST, 0}); // 16 MiB follow
      byte[] chunk = new byte[64 * 1024];
      int left = FRAME - 2 - 1024;
      try {
        while (left > 0) {
          int n = Math.min(left, chunk.length);
          out.write(chunk, 0, n);
          left -= n;
        }
      } catch (IOException e) {
        // closed by the server while sending: read why below
      }
      int length = in.readInt();
      byte type = in.readByte();
      in.readByte();
      byte[] payload = new byte[length - 2];
      in.readFully(payload);
      if (type == FrameType.GOAWAY) {
        GoAway goAway = GoAway.parseFrom(payload);
        if (goAway.getCode() == StatusCode.RESOURCE_EXHAUSTED) {
          toldWhy.incrementAndGet();
          reasons.add(goAway.getMessage());
        }
      }
    } catch (IOException e) {
      // reset before the GOAWAY could be read
    } finally {
      closed.countDown();
    }
  }
}
