package io.rpcx.benchmarks.model;

import java.io.Serializable;
import java.util.Objects;

/**
 * A chat message of the CRUD workload (seed 001): an identifier given by the server, a text and a
 * creation time in epoch milliseconds.
 *
 * <p>A mutable bean, {@link Serializable} for Hessian. Not thread-safe.
 */
public class Message implements Serializable {
  private static final long serialVersionUID = 1L;

  private long id;
  private String text;
  private long createdAtMillis;

  /** An empty message, for deserializers. */
  public Message() {}

  /**
   * A message with every field set; {@code id} is 0 for a message the server has not stored yet.
   */
  public Message(long id, String text, long createdAtMillis) {
    this.id = id;
    this.text = text;
    this.createdAtMillis = createdAtMillis;
  }

  public long getId() {
    return id;
  }

  public void setId(long id) {
    this.id = id;
  }

  public String getText() {
    return text;
  }

  public void setText(String text) {
    this.text = text;
  }

  public long getCreatedAtMillis() {
    return createdAtMillis;
  }

  public void setCreatedAtMillis(long createdAtMillis) {
    this.createdAtMillis = createdAtMillis;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof Message)) {
      return false;
    }
    Message other = (Message) o;
    return id == other.id
        && createdAtMillis == other.createdAtMillis
        && Objects.equals(text, other.text);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, text, createdAtMillis);
  }

  @Override
  public String toString() {
    return "Message{id=" + id + ", text=" + text + ", createdAtMillis=" + createdAtMillis + '}';
  }
}
