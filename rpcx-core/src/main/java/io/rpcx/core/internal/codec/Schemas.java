package io.rpcx.core.internal.codec;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The POJO schemas a sender announces before using some codecs on a connection. */
public final class Schemas {
  private Schemas() {}

  /** The schemas of every POJO type reachable from {@code codecs} (nulls are skipped). */
  public static List<TypeSchema> reachableFrom(Iterable<? extends ValueCodec<?>> codecs) {
    Set<PojoCodec<?>> pojos = new LinkedHashSet<>();
    for (ValueCodec<?> codec : codecs) {
      if (codec != null) {
        codec.collectPojoCodecs(pojos);
      }
    }
    List<TypeSchema> schemas = new ArrayList<>();
    for (PojoCodec<?> pojo : pojos) {
      if (pojo.fieldCount() > TypeSchema.MAX_FIELD_NUMBER) {
        throw new UnsupportedTypeException(
            pojo.typeName(), "it has more than " + TypeSchema.MAX_FIELD_NUMBER + " fields");
      }
      schemas.add(pojo.schema());
    }
    return schemas;
  }
}
