package io.rpcx.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.jayway.jsonpath.JsonPath;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The configuration metadata an IDE reads (META-INF/spring-configuration-metadata.json) is
 * generated from {@link RpcxProperties}: every property with its type, description and default.
 */
class MetadataTest {

  @Test
  void everyPropertyIsDescribed() throws IOException {
    Object metadata;
    try (InputStream in =
        getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
      assertNotNull(in, "the metadata was generated");
      metadata = JsonPath.parse(in).json();
    }
    List<Map<String, Object>> properties = JsonPath.read(metadata, "$.properties");
    for (Map<String, Object> property : properties) {
      assertNotNull(property.get("description"), () -> property.get("name") + " has no description");
    }
    Map<String, Object> port = property(properties, "rpcx.server.port");
    assertEquals("java.lang.Integer", port.get("type"));
    assertEquals(9000, port.get("defaultValue"));
    assertEquals(
        "The port to listen on; 0 picks a free one, published as local.rpcx.server.port.",
        port.get("description"));
    assertEquals(
        "java.time.Duration", property(properties, "rpcx.client.default-timeout").get("type"));
    assertEquals(
        "java.util.Map<java.lang.String,io.rpcx.spring.boot.autoconfigure.RpcxProperties$Service>",
        property(properties, "rpcx.client.services").get("type"));
    for (String name :
        List.of(
            "rpcx.client.target",
            "rpcx.client.load-balancing",
            "rpcx.client.max-attempts",
            "rpcx.client.bearer-token",
            "rpcx.client.ssl.bundle",
            "rpcx.server.bind-address",
            "rpcx.server.worker-threads",
            "rpcx.server.max-connections",
            "rpcx.server.shutdown-grace-period",
            "rpcx.server.ssl.client-auth",
            "rpcx.server.bearer-tokens",
            "rpcx.server.reflection",
            "rpcx.server.grpc.enabled",
            "rpcx.server.grpc.health",
            "rpcx.server.grpc.reflection",
            "rpcx.server.send-stack-traces",
            "rpcx.server.non-blocking-on-event-loop",
            "rpcx.server.blocked-event-loop-threshold",
            "rpcx.server.http.enabled",
            "rpcx.server.http.port",
            "rpcx.server.http.open-api",
            "rpcx.server.http.console",
            "rpcx.server.http.console-path",
            "rpcx.server.http.max-request-bytes",
            "rpcx.zookeeper.connect-string",
            "rpcx.observations.enabled",
            "rpcx.observations.metrics-only")) {
      property(properties, name);
    }
  }

  private static Map<String, Object> property(List<Map<String, Object>> properties, String name) {
    return properties.stream()
        .filter(p -> name.equals(p.get("name")))
        .findFirst()
        .orElseThrow(() -> new AssertionError(name + " is not in the metadata"));
  }
}
