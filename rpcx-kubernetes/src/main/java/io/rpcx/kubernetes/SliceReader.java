package io.rpcx.kubernetes;

import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointConditions;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.rpcx.core.discovery.ServiceEndpoint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Turns the EndpointSlices of one Service into the servers to call: the first address of each
 * endpoint that is ready (serving and not terminating), on the port of the given name, with its
 * zone, node and pod as metadata. EndpointSlices are input from the API server, read as such:
 * an address that is not what its slice's address type says, or a value an endpoint may not
 * carry, skips that endpoint, with the problem named. Immutable results; not thread-safe.
 */
final class SliceReader {
  /** Metadata key of the pod's uid: a pod replaced at the same address is a new instance. */
  static final String INSTANCE = "instance";
  /** Metadata key of the pod's name. */
  static final String POD = "pod";

  private static final Pattern IPV4 =
      Pattern.compile("(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:.]{2,45}");

  /** What one reading found: the servers, and the problems met on the way (for logs). */
  record Reading(List<ServiceEndpoint> endpoints, String problem, List<String> skipped) {}

  private final String service;
  private final String portName;

  /**
   * @param service {@code namespace/name} of the Kubernetes Service, for messages
   * @param portName the name of the port to call, or {@code null} for the only port
   */
  SliceReader(String service, String portName) {
    this.service = service;
    this.portName = portName;
  }

  Reading read(List<EndpointSlice> slices) {
    if (slices.isEmpty()) {
      return new Reading(
          List.of(),
          "no EndpointSlice of Service " + service + " (is there such a Service, with a selector?)",
          List.of());
    }
    List<EndpointSlice> sorted = new ArrayList<>(slices);
    sorted.sort(Comparator.comparing(slice -> slice.getMetadata().getName()));
    Map<String, ServiceEndpoint> byAddress = new HashMap<>();
    List<ServiceEndpoint> endpoints = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    TreeSet<String> portNames = new TreeSet<>();
    boolean portFound = false;
    for (EndpointSlice slice : sorted) {
      String sliceName = slice.getMetadata().getName();
      Integer port = port(slice, portNames);
      if (port == null) {
        continue;
      }
      portFound = true;
      for (Endpoint endpoint : nullToEmpty(slice.getEndpoints())) {
        if (!isReady(endpoint.getConditions())) {
          continue;
        }
        List<String> addresses = nullToEmpty(endpoint.getAddresses());
        if (addresses.isEmpty()) {
          skipped.add("EndpointSlice " + sliceName + " lists an endpoint without an address");
          continue;
        }
        // Kubernetes defines no meaning for addresses after the first; kube-proxy ignores them.
        String address = addresses.get(0);
        String problem = checkAddress(slice.getAddressType(), address);
        if (problem != null) {
          skipped.add("EndpointSlice " + sliceName + " lists " + problem);
          continue;
        }
        ServiceEndpoint parsed;
        try {
          parsed = ServiceEndpoint.of(address, port, metadata(endpoint));
        } catch (IllegalArgumentException e) {
          skipped.add(
              "EndpointSlice " + sliceName + " lists an endpoint that cannot be used ("
                  + printable(address) + "): " + e.getMessage());
          continue;
        }
        // During an update an endpoint may sit in two slices for a moment: once is enough.
        if (byAddress.putIfAbsent(parsed.address(), parsed) == null) {
          endpoints.add(parsed);
        }
      }
    }
    String problem = null;
    if (!portFound) {
      problem =
          portName == null
              ? "the EndpointSlices of Service " + service + " have " + portNames.size()
                  + " ports " + portNames + ": name the one to call (portName)"
              : "the EndpointSlices of Service " + service + " have no port named '" + portName
                  + "' (their ports: " + (portNames.isEmpty() ? "none" : String.join(", ", portNames))
                  + ")";
    } else if (endpoints.isEmpty()) {
      problem = "Service " + service + " has no ready endpoint";
    }
    return new Reading(List.copyOf(endpoints), problem, List.copyOf(skipped));
  }

  /** The slice's port of the name asked for, or {@code null}; adds the names it has to {@code names}. */
  private Integer port(EndpointSlice slice, TreeSet<String> names) {
    List<EndpointPort> ports = nullToEmpty(slice.getPorts());
    for (EndpointPort port : ports) {
      names.add(port.getName() == null || port.getName().isEmpty() ? "(unnamed)" : port.getName());
    }
    if (portName == null) {
      return ports.size() == 1 ? validPort(ports.get(0)) : null;
    }
    for (EndpointPort port : ports) {
      if (portName.equals(port.getName())) {
        return validPort(port);
      }
    }
    return null;
  }

  private static Integer validPort(EndpointPort port) {
    Integer number = port.getPort();
    return number != null && number >= 1 && number <= 65535 ? number : null;
  }

  /**
   * Ready: may take new calls. A terminating endpoint is never ready, so it gets no new call
   * and, left out of the list, drains the calls it has. A missing condition reads as ready, as
   * the API says.
   */
  private static boolean isReady(EndpointConditions conditions) {
    if (conditions == null) {
      return true;
    }
    return !Boolean.FALSE.equals(conditions.getReady())
        && !Boolean.TRUE.equals(conditions.getTerminating());
  }

  /** Why {@code address} is not of {@code type}, or {@code null} if it is. */
  private static String checkAddress(String type, String address) {
    if (address == null || address.isEmpty()) {
      return "an empty address";
    }
    if ("IPv4".equals(type) && !IPV4.matcher(address).matches()) {
      return "address '" + printable(address) + "', which is not an IPv4 address";
    }
    if ("IPv6".equals(type) && (!IPV6.matcher(address).matches() || address.indexOf(':') < 0)) {
      return "address '" + printable(address) + "', which is not an IPv6 address";
    }
    return null;
  }

  private static Map<String, String> metadata(Endpoint endpoint) {
    Map<String, String> metadata = new HashMap<>();
    putIfPresent(metadata, ServiceEndpoint.ZONE, endpoint.getZone());
    putIfPresent(metadata, ServiceEndpoint.NODE, endpoint.getNodeName());
    ObjectReference pod = endpoint.getTargetRef();
    if (pod != null) {
      putIfPresent(metadata, INSTANCE, pod.getUid());
      putIfPresent(metadata, POD, pod.getName());
    }
    return metadata;
  }

  private static void putIfPresent(Map<String, String> metadata, String key, String value) {
    if (value != null && !value.isEmpty()) {
      metadata.put(key, value);
    }
  }

  private static <T> List<T> nullToEmpty(List<T> list) {
    return Objects.requireNonNullElse(list, List.of());
  }

  /** At most 64 characters, control characters escaped: safe in a log line. */
  static String printable(String text) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length() && out.length() < 64; i++) {
      char c = text.charAt(i);
      out.append(c < ' ' || c == 0x7f ? String.format("\\u%04x", (int) c) : String.valueOf(c));
    }
    return text.length() > 64 ? out + "..." : out.toString();
  }
}
