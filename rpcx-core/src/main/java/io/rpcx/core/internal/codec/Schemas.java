package io.rpcx.core.internal.codec;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The POJO schemas a sender announces before using some codecs on a connection. */
public final class Schemas {
  private Schemas() {}

  /**
   * The schemas of every type reachable from {@code codecs} that senders describe ({@link
   * SchemaDescribed}), each once, in the order a depth-first walk meets them (nulls are skipped).
   */
  public static List<TypeSchema> reachableFrom(Iterable<? extends ValueCodec<?>> codecs) {
    Set<SchemaDescribed> described = new LinkedHashSet<>();
    for (ValueCodec<?> codec : codecs) {
      if (codec != null) {
        walk(codec, described);
      }
    }
    List<TypeSchema> schemas = new ArrayList<>();
    for (SchemaDescribed type : described) {
      TypeSchema schema = type.schema();
      if (schema.fields().size() > TypeSchema.MAX_FIELD_NUMBER) {
        throw new UnsupportedTypeException(
            schema.name(), "it has more than " + TypeSchema.MAX_FIELD_NUMBER + " fields");
      }
      schemas.add(schema);
    }
    return schemas;
  }

  private static void walk(ValueCodec<?> codec, Set<SchemaDescribed> described) {
    // A described type is walked once: recursive types (a node of nodes) end here.
    if (codec instanceof SchemaDescribed && !described.add((SchemaDescribed) codec)) {
      return;
    }
    for (ValueCodec<?> nested : codec.nestedCodecs()) {
      walk(nested, described);
    }
  }
}
