package io.rpcx.spring.boot.autoconfigure;

import io.rpcx.core.UnsupportedRuntimeException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a {@link UnsupportedRuntimeException}: a Spring Boot, Netty or protobuf-java version
 * that RPCX does not run with (as a Spring Boot BOM that manages Netty 4.1 would bring).
 */
class UnsupportedRuntimeFailureAnalyzer extends AbstractFailureAnalyzer<UnsupportedRuntimeException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, UnsupportedRuntimeException cause) {
    return new FailureAnalysis(
        "RPCX needs " + cause.library() + " " + cause.supported() + "; found " + cause.found()
            + " on the class path.",
        cause.advice(),
        cause);
  }
}
