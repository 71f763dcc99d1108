package com.example.orders;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;

/** A service, as a user writes one. */
@RPCXClient(name = "greeter")
public interface Greeter {
  String greet(String name);

  /** Its implementation. */
  @RPCXServer(name = "greeter")
  final class Impl implements Greeter {
    @Override
    public String greet(String name) {
      return "Hello, " + name;
    }
  }
}
