package io.rpcx.spring.boot.autoconfigure.greeter;

import io.rpcx.annotation.RPCXClient;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/** The service the tests publish from a bean and call through an injected client. */
@RPCXClient(name = "greeter")
public interface Greeter {
  String greet(String name);

  Greeting greetFully(Person person);

  /** Answers after the test opens {@link GreeterImpl#gate}. */
  String held(String name);

  /** The name of the thread that served the call, and whether it is virtual. */
  String servingThread();

  CompletableFuture<String> greetAsync(String name);

  /** A server stream: a greeting for each name. */
  Stream<String> greetEach(List<String> names);
}
