package io.rpcx.examples.api;

import java.time.Instant;

/** The chat message of the framework comparison article (seed 001): a record. */
public record Message(long id, String text, Instant createdAt) {}
