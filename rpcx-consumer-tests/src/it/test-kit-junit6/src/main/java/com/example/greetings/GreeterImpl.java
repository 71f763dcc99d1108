package com.example.greetings;

import io.rpcx.annotation.RPCXServer;

/** Greets. */
@RPCXServer(name = "greeter")
public class GreeterImpl implements Greeter {
  @Override
  public String greet(String name) {
    return "hello " + name;
  }
}
