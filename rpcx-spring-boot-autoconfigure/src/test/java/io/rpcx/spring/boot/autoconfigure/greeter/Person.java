package io.rpcx.spring.boot.autoconfigure.greeter;

import java.util.List;

/** A record argument. */
public record Person(String name, List<String> titles) {}
