package io.rpcx.spring.boot.autoconfigure.greeter;

import org.springframework.stereotype.Component;

/** A client-side bean that gets the remote service by constructor injection. */
@Component
public class GreetingCaller {
  private final Greeter greeter;

  public GreetingCaller(Greeter greeter) {
    this.greeter = greeter;
  }

  public String welcome(String name) {
    return greeter.greet(name) + "!";
  }

  public Greeter greeter() {
    return greeter;
  }
}
