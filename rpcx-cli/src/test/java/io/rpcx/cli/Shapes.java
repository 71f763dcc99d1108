package io.rpcx.cli;

import io.rpcx.annotation.RPCXServer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/** A service whose values have every shape RPCX carries, to check the CLI's JSON against the server. */
public interface Shapes {
  /** What the last call received, as Java values. */
  AtomicReference<Object> received = new AtomicReference<>();

  enum Color {
    RED,
    GREEN
  }

  /** A record of every scalar and container shape. */
  record Everything(
      boolean flag,
      int small,
      long big,
      char letter,
      float ratio,
      double precise,
      String text,
      byte[] data,
      Color color,
      Instant at,
      Duration took,
      LocalDate day,
      LocalDateTime moment,
      BigDecimal amount,
      BigInteger huge,
      UUID id,
      List<Integer> numbers,
      List<String> words,
      Set<Long> ids,
      Map<String, Integer> counts,
      Map<Long, Part> parts,
      List<List<Long>> grid,
      Part part,
      List<Part> partList,
      Integer boxed) {}

  /** A nested class. */
  final class Part {
    private String name;
    private double weight;

    public Part() {}

    public Part(String name, double weight) {
      this.name = name;
      this.weight = weight;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Part
          && java.util.Objects.equals(name, ((Part) other).name)
          && weight == ((Part) other).weight;
    }

    @Override
    public int hashCode() {
      return java.util.Objects.hash(name, weight);
    }

    @Override
    public String toString() {
      return "Part[" + name + ", " + weight + "]";
    }
  }

  Everything echo(Everything value);

  List<Everything> echoAll(List<Everything> values);

  Map<String, List<Integer>> nested(Map<String, List<Integer>> value);

  Optional<String> maybe(Optional<String> value);

  int add(int a, int b);

  void nothing();

  byte[] bytes(byte[] data);

  /** A protobuf message with nested messages, repeated fields and an enum. */
  com.google.protobuf.Api api(com.google.protobuf.Api value);

  /** A protobuf message with a map of messages with a oneof. */
  com.google.protobuf.Struct struct(com.google.protobuf.Struct value);

  /** Answers after {@code millis}: a call that outlives its timeout. */
  String sleep(long millis) throws InterruptedException;

  /** The implementation: returns what it is given, and keeps it in {@link #received}. */
  @RPCXServer(name = "shapes")
  final class Impl implements Shapes {
    @Override
    public Everything echo(Everything value) {
      received.set(value);
      return value;
    }

    @Override
    public List<Everything> echoAll(List<Everything> values) {
      received.set(values);
      return values;
    }

    @Override
    public Map<String, List<Integer>> nested(Map<String, List<Integer>> value) {
      received.set(value);
      return value;
    }

    @Override
    public Optional<String> maybe(Optional<String> value) {
      received.set(value);
      return value;
    }

    @Override
    public int add(int a, int b) {
      return a + b;
    }

    @Override
    public void nothing() {}

    @Override
    public byte[] bytes(byte[] data) {
      return data;
    }

    @Override
    public com.google.protobuf.Api api(com.google.protobuf.Api value) {
      received.set(value);
      return value;
    }

    @Override
    public com.google.protobuf.Struct struct(com.google.protobuf.Struct value) {
      received.set(value);
      return value;
    }

    @Override
    public String sleep(long millis) throws InterruptedException {
      Thread.sleep(millis);
      return "slept";
    }
  }
}
