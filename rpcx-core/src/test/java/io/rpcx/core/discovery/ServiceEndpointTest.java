package io.rpcx.core.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Endpoints are checked when made, so that one read from a registry is valid or refused. */
class ServiceEndpointTest {

  private static String rejection(Runnable make) {
    return assertThrows(IllegalArgumentException.class, make::run).getMessage();
  }

  @Test
  void parsesHostAndPortIncludingBracketedIpv6() {
    assertEquals(ServiceEndpoint.of("orders.internal", 9000), ServiceEndpoint.parse(" orders.internal:9000 "));
    ServiceEndpoint v6 = ServiceEndpoint.parse("[::1]:9000");
    assertEquals("::1", v6.host());
    assertEquals("[::1]:9000", v6.address());
  }

  @Test
  void refusesWhatIsNotHostAndPort() {
    assertEquals("endpoint: 'orders' (expected: host:port)", rejection(() -> ServiceEndpoint.parse("orders")));
    assertEquals(
        "endpoint: '::1:9000' (expected: host:port, with an IPv6 host in brackets)",
        rejection(() -> ServiceEndpoint.parse("::1:9000")));
    assertEquals(
        "endpoint: 'h:http' has port 'http' (expected: 1-65535)",
        rejection(() -> ServiceEndpoint.parse("h:http")));
    assertEquals("port: 0 (expected: 1-65535)", rejection(() -> ServiceEndpoint.of("h", 0)));
    assertEquals("host: 0 characters (expected: 1-253)", rejection(() -> ServiceEndpoint.of("", 1)));
    assertEquals(
        "host: 'a\\u000ab' has character 10 at 1 (expected: a host name or an IP address)",
        rejection(() -> ServiceEndpoint.of("a\nb", 1)));
  }

  @Test
  void aSchemeNamesTheProtocolTheServerSpeaks() {
    ServiceEndpoint grpc = ServiceEndpoint.parse("grpc://orders-go.internal:50051");
    assertEquals(ServiceEndpoint.GRPC, grpc.protocol());
    assertEquals(
        ServiceEndpoint.of("orders-go.internal", 50051, Map.of(ServiceEndpoint.PROTOCOL, "grpc")),
        grpc);
    assertEquals("orders-go.internal:50051", grpc.address());
    assertEquals("[::1]:50051", ServiceEndpoint.parse("grpc://[::1]:50051").address());
    assertEquals(ServiceEndpoint.of("h", 9000), ServiceEndpoint.parse("rpcx://h:9000"));
    assertEquals(ServiceEndpoint.RPCX, ServiceEndpoint.parse("h:9000").protocol());
    assertEquals(
        ServiceEndpoint.RPCX,
        ServiceEndpoint.of("h", 1, Map.of(ServiceEndpoint.PROTOCOL, "rpcx")).protocol());
  }

  @Test
  void refusesAProtocolItDoesNotSpeak() {
    assertEquals(
        "endpoint: scheme 'http' (expected: host:port, rpcx://host:port or grpc://host:port)",
        rejection(() -> ServiceEndpoint.parse("http://h:80")));
    assertEquals(
        "metadata 'protocol': 'gRPC' (expected: rpcx or grpc)",
        rejection(() -> ServiceEndpoint.of("h", 1, Map.of("protocol", "gRPC"))));
    assertEquals(
        "host: 'grpc://h' holds a scheme (expected: a host name or an IP address (a gRPC server is"
            + " named by the endpoint grpc://host:port, or metadata protocol=grpc))",
        rejection(() -> ServiceEndpoint.of("grpc://h", 1)));
  }

  @Test
  void boundsMetadata() {
    Map<String, String> many = new HashMap<>();
    for (int i = 0; i < 33; i++) {
      many.put("k" + i, "v");
    }
    assertEquals(
        "metadata: 33 entries (expected: at most 32)",
        rejection(() -> ServiceEndpoint.of("h", 1, many)));
    assertEquals(
        "metadata 'zone': 257 characters (expected: at most 256)",
        rejection(() -> ServiceEndpoint.of("h", 1, Map.of("zone", "x".repeat(257)))));
  }

  @Test
  void carriesZoneAndNodeWhenTheDiscoveryKnowsThem() {
    ServiceEndpoint placed =
        ServiceEndpoint.of(
            "10.1.2.3", 9000, Map.of(ServiceEndpoint.ZONE, "eu-1a", ServiceEndpoint.NODE, "n-7"));
    assertEquals(Optional.of("eu-1a"), placed.zone());
    assertEquals(Optional.of("n-7"), placed.node());
    ServiceEndpoint unplaced = ServiceEndpoint.of("10.1.2.3", 9000);
    assertEquals(Optional.empty(), unplaced.zone());
    assertEquals(Optional.empty(), unplaced.node());
  }

  @Test
  void equalityIncludesMetadataAndMetadataIsSorted() {
    ServiceEndpoint endpoint = ServiceEndpoint.of("h", 1, Map.of("zone", "a", "instance", "1"));
    assertEquals(List.of("instance", "zone"), List.copyOf(endpoint.metadata().keySet()));
    assertEquals("h:1 {instance=1, zone=a}", endpoint.toString());
  }

  @Test
  void aStaticListGivesEachServiceItsOwnServersOrTheCommonOnes() {
    StaticDiscovery discovery =
        StaticDiscovery.builder()
            .service("orders", "o1:9000", "o2:9000")
            .everyService(List.of(ServiceEndpoint.of("any", 9000)))
            .build();
    assertEquals(
        List.of(ServiceEndpoint.of("o1", 9000), ServiceEndpoint.of("o2", 9000)),
        discovery.endpoints("orders"));
    assertEquals(List.of(ServiceEndpoint.of("any", 9000)), discovery.endpoints("users"));
  }
}
