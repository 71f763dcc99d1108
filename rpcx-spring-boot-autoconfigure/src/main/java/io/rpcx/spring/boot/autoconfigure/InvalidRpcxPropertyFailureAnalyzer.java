package io.rpcx.spring.boot.autoconfigure;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

/**
 * Reports a {@link InvalidRpcxPropertyException}: the property, its value and where it was set,
 * and the values it accepts.
 */
class InvalidRpcxPropertyFailureAnalyzer
    extends AbstractFailureAnalyzer<InvalidRpcxPropertyException> {
  private final Environment environment;

  InvalidRpcxPropertyFailureAnalyzer(Environment environment) {
    this.environment = environment;
  }

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, InvalidRpcxPropertyException cause) {
    if (cause.description() != null) {
      return new FailureAnalysis(cause.description(), cause.action(), cause);
    }
    String origin = origin(cause.property());
    return new FailureAnalysis(
        "The property " + cause.property() + " has the value \"" + cause.value() + "\""
            + (origin == null ? "" : " (from " + origin + ")")
            + ", which RPCX does not accept.",
        "Set " + cause.property() + " to a value RPCX accepts: " + cause.accepted() + ".",
        cause);
  }

  /** Where the property was set, if the environment can tell. */
  private String origin(String property) {
    if (environment == null) {
      return null;
    }
    ConfigurationPropertyName name = ConfigurationPropertyName.ofIfValid(property);
    if (name == null) {
      return null; // a map key Spring Boot would write in brackets: no origin to look up
    }
    for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
      ConfigurationProperty found = source.getConfigurationProperty(name);
      if (found != null && found.getOrigin() != null) {
        return found.getOrigin().toString();
      }
    }
    return null;
  }
}
