package io.rpcx.kubernetes;

import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import java.util.List;

/** EndpointSlices as the EndpointSlice controller writes them, for the tests. */
final class Slices {
  private Slices() {}

  /** A pod's endpoint in zone {@code zone-<n>} on node {@code node-<n>}, named {@code pod}. */
  static Endpoint pod(String pod, String address, boolean ready, boolean terminating) {
    return new EndpointBuilder()
        .withAddresses(address)
        .withNewConditions()
        .withReady(ready && !terminating)
        .withServing(ready)
        .withTerminating(terminating)
        .endConditions()
        .withZone("zone-" + pod.charAt(pod.length() - 1))
        .withNodeName("node-" + pod.charAt(pod.length() - 1))
        .withNewTargetRef()
        .withKind("Pod")
        .withNamespace(MockKubernetes.NAMESPACE)
        .withName(pod)
        .withUid("uid-" + pod)
        .endTargetRef()
        .build();
  }

  static Endpoint ready(String pod, String address) {
    return pod(pod, address, true, false);
  }

  /** A slice of Service {@code service} with one port, {@code portName}. */
  static EndpointSlice slice(
      String name, String service, String portName, int port, List<Endpoint> endpoints) {
    return slice(name, service, "IPv4", portName, port, endpoints);
  }

  static EndpointSlice slice(
      String name,
      String service,
      String addressType,
      String portName,
      int port,
      List<Endpoint> endpoints) {
    return new EndpointSliceBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(MockKubernetes.NAMESPACE)
        .addToLabels(SliceWatch.SERVICE_NAME_LABEL, service)
        .endMetadata()
        .withAddressType(addressType)
        .addNewPort()
        .withName(portName)
        .withPort(port)
        .withProtocol("TCP")
        .endPort()
        .withEndpoints(endpoints)
        .build();
  }
}
