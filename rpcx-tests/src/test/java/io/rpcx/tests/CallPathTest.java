package io.rpcx.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A call of an annotated interface travels to the server and back as if it were local. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CallPathTest {

  @RegisterExtension
  static final RpcxExtension rpcx = RpcxExtension.withServices(new EchoService.Impl());

  @Test
  void aRemoteCallReturnsTheServersResult() {
    assertEquals("hello", rpcx.create(EchoService.class).echo("hello"));
  }

  @Test
  void methodsAreCalledByTheirPublishedNames() {
    assertEquals("HELLO", rpcx.create(EchoService.class).upperCase("hello"));
  }

  @Test
  void anAsynchronousMethodCompletesItsFuture() throws Exception {
    assertEquals("later", rpcx.create(EchoService.class).echoAsync("later").get(5, TimeUnit.SECONDS));
  }
}
