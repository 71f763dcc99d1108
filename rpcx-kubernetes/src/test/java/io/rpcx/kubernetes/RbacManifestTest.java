package io.rpcx.kubernetes;

import static io.rpcx.kubernetes.Slices.ready;
import static io.rpcx.kubernetes.Slices.slice;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.rpcx.core.discovery.ServiceDiscovery;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Kubernetes manifests of docs/CLUSTER.md, read from the page: the Role the client's service
 * account is bound to grants get, list and watch on endpointslices and nothing else, and covers
 * every request the discovery makes to the API server; the Service is headless with the port the
 * client names; the server has its probes.
 */
@Timeout(60)
class RbacManifestTest {
  private static final Path DOCS = Path.of("..", "docs", "CLUSTER.md");

  private static List<HasMetadata> manifests() throws IOException {
    String page = Files.readString(DOCS);
    String section = page.substring(page.indexOf("## Kubernetes"));
    Matcher yaml = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL).matcher(section);
    assertTrue(yaml.find(), "a yaml block in the Kubernetes section of " + DOCS);
    KubernetesSerialization serialization = new KubernetesSerialization();
    List<HasMetadata> resources = new ArrayList<>();
    for (String document : yaml.group(1).split("(?m)^---$")) {
      resources.add(serialization.unmarshal(document));
    }
    return resources;
  }

  private static <T> T only(List<HasMetadata> resources, Class<T> type, String name) {
    return resources.stream()
        .filter(type::isInstance)
        .filter(resource -> name == null || resource.getMetadata().getName().equals(name))
        .map(type::cast)
        .reduce((a, b) -> { throw new AssertionError("two " + type.getSimpleName() + "s"); })
        .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " " + name));
  }

  @Test
  void theRoleGrantsExactlyWhatTheDiscoveryUsesToTheClientsServiceAccount() throws Exception {
    List<HasMetadata> resources = manifests();
    Role role = only(resources, Role.class, null);
    assertEquals(1, role.getRules().size());
    PolicyRule rule = role.getRules().get(0);
    assertEquals(List.of("discovery.k8s.io"), rule.getApiGroups());
    assertEquals(List.of("endpointslices"), rule.getResources());
    assertEquals(List.of("get", "list", "watch"), rule.getVerbs());
    assertTrue(rule.getResourceNames() == null || rule.getResourceNames().isEmpty());

    RoleBinding binding = only(resources, RoleBinding.class, null);
    assertEquals(role.getMetadata().getName(), binding.getRoleRef().getName());
    assertEquals("Role", binding.getRoleRef().getKind());
    Deployment client = only(resources, Deployment.class, "rpcx-example-client");
    String account = client.getSpec().getTemplate().getSpec().getServiceAccountName();
    only(resources, ServiceAccount.class, account);
    assertEquals(1, binding.getSubjects().size());
    assertEquals(account, binding.getSubjects().get(0).getName());
    assertEquals(role.getMetadata().getNamespace(), binding.getSubjects().get(0).getNamespace());

    // Every request of a discovery that lists, watches, loses its watch and resumes it: a verb
    // of the Role, on endpointslices of the Role's namespace.
    try (MockKubernetes kubernetes = new MockKubernetes()) {
      kubernetes.apply(slice("orders-a", "orders", "rpcx", 9000, List.of(ready("pod-1", "10.0.0.1"))));
      Recorder recorder = new Recorder();
      try (KubernetesDiscovery discovery =
          KubernetesDiscovery.builder().client(kubernetes.client()).namespace("shop")
              .everyService("orders").portName("rpcx").build()) {
        ServiceDiscovery.Subscription subscription = discovery.subscribe("echo", recorder);
        kubernetes.disconnect();
        KubernetesDiscoveryTest.sleepAWhileDisconnected();
        kubernetes.reconnect();
        kubernetes.apply(
            slice("orders-a", "orders", "rpcx", 9000,
                List.of(ready("pod-1", "10.0.0.1"), ready("pod-2", "10.0.0.2"))));
        recorder.awaitAddresses(List.of("10.0.0.1:9000", "10.0.0.2:9000"));
        subscription.close();
      }
      String collection =
          "/apis/discovery.k8s.io/v1/namespaces/" + role.getMetadata().getNamespace()
              + "/endpointslices";
      List<String> requests = kubernetes.requests();
      assertFalse(requests.isEmpty());
      for (String request : requests) {
        assertTrue(request.startsWith("GET " + collection + "?"), request);
        String verb = request.contains("watch=true") ? "watch" : "list";
        assertTrue(rule.getVerbs().contains(verb), request);
      }
    }
  }

  @Test
  void theServiceIsHeadlessWithTheClientsPortAndTheServerHasProbes() throws Exception {
    List<HasMetadata> resources = manifests();
    Service service = only(resources, Service.class, "rpcx-example-server");
    assertEquals("None", service.getSpec().getClusterIP());
    Container client =
        only(resources, Deployment.class, "rpcx-example-client")
            .getSpec().getTemplate().getSpec().getContainers().get(0);
    List<String> args = client.getArgs();
    String portName = args.get(args.indexOf("--port-name") + 1);
    assertEquals(service.getMetadata().getName(), args.get(args.indexOf("--kubernetes") + 1));
    assertEquals(portName, service.getSpec().getPorts().get(0).getName());
    Container server =
        only(resources, Deployment.class, "rpcx-example-server")
            .getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals(portName, server.getPorts().get(0).getName());
    assertNotNull(server.getReadinessProbe().getTcpSocket());
    assertNotNull(server.getLivenessProbe().getTcpSocket());
  }
}
