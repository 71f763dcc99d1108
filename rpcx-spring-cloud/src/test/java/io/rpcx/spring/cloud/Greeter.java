package io.rpcx.spring.cloud;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;

/** The service of the tests. */
@RPCXClient(name = "greeter")
public interface Greeter {
  String greet(String name);

  /** The implementation, published by the server application. */
  @RPCXServer(name = "greeter")
  class Impl implements Greeter {
    @Override
    public String greet(String name) {
      return "Hello, " + name;
    }
  }
}
