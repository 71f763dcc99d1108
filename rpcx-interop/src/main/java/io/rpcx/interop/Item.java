package io.rpcx.interop;

import java.util.List;
import java.util.Map;

/**
 * A record with a value of each kind: scalars, text, nested collections and an enum.
 *
 * @param id a number
 * @param name a text
 * @param tags texts in order
 * @param attributes texts by key
 * @param kind an enum
 */
public record Item(long id, String name, List<String> tags, Map<String, String> attributes, Kind kind) {

  /** What an item is. */
  public enum Kind {
    /** The first constant, which protobuf writes as 0. */
    PLAIN,
    /** Another. */
    SPECIAL
  }

  /** The item of number {@code id}, with values derived from it. */
  public static Item of(long id) {
    return new Item(
        id,
        "item-" + id,
        List.of("t" + id, "u" + id),
        Map.of("k", "v" + id),
        id % 2 == 0 ? Kind.PLAIN : Kind.SPECIAL);
  }
}
