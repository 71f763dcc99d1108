package io.rpcx.registry.zookeeper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rpcx.core.discovery.ServiceEndpoint;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A registration record is text a person can read, and anything else found in its place is
 * rejected with a message naming the problem.
 */
class EndpointRecordTest {

  private static ServiceEndpoint decode(String text) {
    return EndpointRecord.decode(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String rejection(byte[] data) {
    return assertThrows(IllegalArgumentException.class, () -> EndpointRecord.decode(data))
        .getMessage();
  }

  private static String rejection(String text) {
    return rejection(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void isReadableTextThatRoundTrips() {
    ServiceEndpoint endpoint =
        ServiceEndpoint.of("10.0.0.7", 9000, Map.of("zone", "eu-1", "instance", "a1"));
    byte[] data = EndpointRecord.encode(endpoint);
    assertEquals(
        "rpcx-endpoint 1\nhost=10.0.0.7\nport=9000\nmeta.instance=a1\nmeta.zone=eu-1\n",
        new String(data, StandardCharsets.UTF_8));
    assertEquals(endpoint, EndpointRecord.decode(data));
    assertArrayEquals(data, EndpointRecord.encode(EndpointRecord.decode(data)));
  }

  @Test
  void skipsKeysWrittenByANewerVersion() {
    assertEquals(
        ServiceEndpoint.of("h", 1),
        decode("rpcx-endpoint 1\nhost=h\nweight=10\nport=1\n"));
  }

  @Test
  void rejectsWhatIsNotARecordNamingTheProblem() {
    assertEquals("no data", rejection(new byte[0]));
    assertEquals("16385 bytes (expected: at most 16384)", rejection(new byte[16 * 1024 + 1]));
    assertEquals("not UTF-8 text", rejection(new byte[] {(byte) 0xc3, (byte) 0x28}));
    assertEquals(
        "first line is not 'rpcx-endpoint 1' (an RPCX registration of another version, or not one)",
        rejection("{\"host\":\"10.0.0.7\"}"));
    assertEquals("no port", rejection("rpcx-endpoint 1\nhost=h\n"));
    assertEquals("no host", rejection("rpcx-endpoint 1\nport=1\n"));
    assertEquals("line 3 is not key=value", rejection("rpcx-endpoint 1\nhost=h\nport\n"));
    assertEquals("key 'host' appears twice", rejection("rpcx-endpoint 1\nhost=a\nhost=b\nport=1"));
    assertEquals("port 'x1' is not a number", rejection("rpcx-endpoint 1\nhost=h\nport=x1\n"));
    assertEquals(
        "port: 70000 (expected: 1-65535)", rejection("rpcx-endpoint 1\nhost=h\nport=70000\n"));
    assertEquals(
        "host: 'a b' has character 32 at 1 (expected: a host name or an IP address)",
        rejection("rpcx-endpoint 1\nhost=a b\nport=1\n"));
    assertEquals(
        "metadata key: 'Zone' (expected: characters a-z 0-9 . _ -)",
        rejection("rpcx-endpoint 1\nhost=h\nport=1\nmeta.Zone=x\n"));
    assertEquals(
        "metadata 'zone' has a control character at 1",
        rejection("rpcx-endpoint 1\nhost=h\nport=1\nmeta.zone=a\tb\n"));
  }
}
