package io.rpcx.testsuite;

/** {@link RemotePublisherTckTest} over TCP on the loopback interface: the TCK, rule by rule. */
public class RemotePublisherTcpTckTest extends RemotePublisherTckTest {
  public RemotePublisherTcpTckTest() {
    super(Transport.TCP);
  }
}
