package io.rpcx.testing;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import java.util.concurrent.atomic.AtomicInteger;

/** The service of these tests: greets, and counts the greetings it made. */
@RPCXClient(name = "greeter")
public interface Greeter {

  String greet(String name);

  String wave(String name);

  /** The implementation: counts the calls that ran. */
  @RPCXServer(name = "greeter")
  final class Impl implements Greeter {
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public String greet(String name) {
      calls.incrementAndGet();
      return "hello " + name;
    }

    @Override
    public String wave(String name) {
      calls.incrementAndGet();
      return "*waves at " + name + "*";
    }
  }
}
