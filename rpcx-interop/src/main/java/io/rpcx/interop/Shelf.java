package io.rpcx.interop;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** A POJO holding records, as application classes hold their parts. */
public final class Shelf {
  private String label;
  private int capacity;
  private boolean open;
  private List<Item> items = new ArrayList<>();

  private Shelf() {}

  /** A shelf of the given parts. */
  public Shelf(String label, int capacity, boolean open, List<Item> items) {
    this.label = label;
    this.capacity = capacity;
    this.open = open;
    this.items = items;
  }

  /** The label. */
  public String label() {
    return label;
  }

  /** How many items fit. */
  public int capacity() {
    return capacity;
  }

  /** Whether it is open. */
  public boolean open() {
    return open;
  }

  /** The items on it. */
  public List<Item> items() {
    return items;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Shelf that
        && Objects.equals(label, that.label)
        && capacity == that.capacity
        && open == that.open
        && Objects.equals(items, that.items);
  }

  @Override
  public int hashCode() {
    return Objects.hash(label, capacity, open, items);
  }

  @Override
  public String toString() {
    return "Shelf[" + label + ", " + capacity + ", " + open + ", " + items + "]";
  }
}
