package io.rpcx.spring.boot.autoconfigure.greeter;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/** A bean the service depends on: proof that services get their dependencies injected. */
@Component
public class Salutation {
  private final String word;

  public Salutation(@Value("${greeter.salutation:Hello}") String word) {
    this.word = word;
  }

  public String of(String name) {
    return word + ", " + name;
  }
}
