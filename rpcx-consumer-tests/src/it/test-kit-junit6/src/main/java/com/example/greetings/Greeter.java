package com.example.greetings;

import io.rpcx.annotation.RPCXClient;

/** The service under test. */
@RPCXClient(name = "greeter")
public interface Greeter {
  String greet(String name);
}
