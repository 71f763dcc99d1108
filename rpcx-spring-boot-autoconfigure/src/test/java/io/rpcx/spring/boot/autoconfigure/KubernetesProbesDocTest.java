package io.rpcx.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.server.RpcxServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The Deployment of docs/GRPC.md ("Kubernetes {@code grpc:} probes") is YAML that says what the
 * page says: gRPC probes on the container's port, and a termination grace period longer than the
 * {@code preStop} wait plus the server's default grace period. Here because SnakeYAML is on this
 * module's test class path (Spring Boot's).
 */
class KubernetesProbesDocTest {
  private static final Path GRPC_MD = Path.of("..", "docs", "GRPC.md");

  @Test
  @SuppressWarnings("unchecked")
  void theDeploymentProbesThePortAndOutlastsTheDrain() throws Exception {
    String page = Files.readString(GRPC_MD);
    int start = page.indexOf("```yaml\n", page.indexOf("## Kubernetes `grpc:` probes"));
    assertTrue(start > 0, GRPC_MD + ": the Deployment");
    String yaml = page.substring(start + "```yaml\n".length(), page.indexOf("```\n", start + 1));
    Map<String, Object> deployment = new Yaml().load(yaml);
    assertEquals("Deployment", deployment.get("kind"));

    Map<String, Object> pod = at(deployment, "spec", "template", "spec");
    Map<String, Object> container = ((List<Map<String, Object>>) pod.get("containers")).get(0);
    Object port = ((List<Map<String, Object>>) container.get("ports")).get(0).get("containerPort");
    assertEquals(port, at(container, "readinessProbe", "grpc").get("port"));
    assertEquals(port, at(container, "livenessProbe", "grpc").get("port"));
    assertEquals("orders", at(container, "readinessProbe", "grpc").get("service"));

    int preStop = (Integer) at(container, "lifecycle", "preStop", "sleep").get("seconds");
    int grace = (Integer) pod.get("terminationGracePeriodSeconds");
    assertTrue(grace > preStop + RpcxServer.DEFAULT_SHUTDOWN_GRACE_PERIOD.toSeconds(),
        "terminationGracePeriodSeconds " + grace + " outlasts preStop " + preStop
            + " s and the server's grace period " + RpcxServer.DEFAULT_SHUTDOWN_GRACE_PERIOD);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> at(Map<String, Object> map, String... keys) {
    Map<String, Object> at = map;
    for (String key : keys) {
      at = (Map<String, Object>) at.get(key);
    }
    return at;
  }
}
