package io.rpcx.spring.boot.autoconfigure;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

/**
 * Reports a {@link InvalidRpcxPropertyException}: the property, its value as it was written and
 * where it was set, and the values it accepts.
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
    ConfigurationProperty set = configured(cause.property());
    Object value = set == null || set.getValue() == null ? cause.value() : set.getValue();
    return new FailureAnalysis(
        "The property " + cause.property() + " has the value \"" + value + "\""
            + (set == null || set.getOrigin() == null ? "" : " (from " + set.getOrigin() + ")")
            + ", which RPCX does not accept.",
        "Set " + cause.property() + " to a value RPCX accepts: " + cause.accepted() + ".",
        cause);
  }

  /**
   * The property as it was set, if the environment can tell: its value as the user wrote it
   * ({@code -1s}, where the bound value would print as {@code PT-1S}) and where.
   */
  private ConfigurationProperty configured(String property) {
    if (environment == null) {
      return null;
    }
    ConfigurationPropertyName name = ConfigurationPropertyName.ofIfValid(property);
    if (name == null) {
      return null; // a map key Spring Boot would write in brackets: no origin to look up
    }
    for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
      ConfigurationProperty found = source.getConfigurationProperty(name);
      if (found != null) {
        return found;
      }
    }
    return null;
  }
}
