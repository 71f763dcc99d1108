package io.rpcx.core.internal.reflection;

import com.google.protobuf.Descriptors;
import io.rpcx.core.reflection.ServiceDescription;
import java.util.Map;

/**
 * A service's description, with the descriptors of the protobuf messages it carries (which a
 * description, being plain data, cannot hold). Immutable.
 *
 * @param description the service as reflection describes it
 * @param protobufMessages the descriptor of each protobuf message type, by its full name; a lite
 *     message, which has none, is absent
 */
public record DescribedService(
    ServiceDescription description, Map<String, Descriptors.Descriptor> protobufMessages) {
  /** Copies the map. */
  public DescribedService {
    protobufMessages = Map.copyOf(protobufMessages);
  }
}
