package io.rpcx.core.internal.codec.pojo;

import io.rpcx.core.internal.codec.TypeSchema;
import java.util.HashMap;
import java.util.Map;

/**
 * Maps the field numbers a sender uses for one POJO type to the receiver's fields. Fields the
 * receiver does not have are skipped; fields whose type differs between the two are recorded so
 * that a value arriving in one fails with a message naming the field. Immutable.
 */
final class FieldMapping {
  static final int UNKNOWN = -1;
  static final int INCOMPATIBLE = -2;

  /** Receiver field index per sender field number; {@link #UNKNOWN} or {@link #INCOMPATIBLE}. */
  private final int[] localIndex;
  /** Sender type descriptor per sender field number, for incompatible fields' messages. */
  private final String[] remoteTypes;
  /** Sender field name per sender field number, for incompatible fields' messages. */
  private final String[] remoteNames;
  /** Per receiver field: whether the sender's class has it (so its absence means null or 0). */
  private final boolean[] senderHas;

  private FieldMapping(
      int[] localIndex, String[] remoteTypes, String[] remoteNames, boolean[] senderHas) {
    this.localIndex = localIndex;
    this.remoteTypes = remoteTypes;
    this.remoteNames = remoteNames;
    this.senderHas = senderHas;
  }

  /** The mapping of a sender that numbers fields exactly like {@code codec}. */
  static FieldMapping identity(int fieldCount) {
    int[] index = new int[fieldCount + 1];
    index[0] = UNKNOWN;
    for (int number = 1; number <= fieldCount; number++) {
      index[number] = number - 1;
    }
    boolean[] senderHas = new boolean[fieldCount];
    java.util.Arrays.fill(senderHas, true);
    return new FieldMapping(index, null, null, senderHas);
  }

  /** The mapping from the sender's {@code remote} schema to the receiver's {@code local} codec. */
  static FieldMapping between(TypeSchema remote, PojoCodec<?> local) {
    Map<String, Integer> localByName = new HashMap<>();
    for (int i = 0; i < local.fieldCount(); i++) {
      localByName.put(local.field(i).name(), i);
    }
    int maxNumber = 0;
    for (TypeSchema.Field field : remote.fields()) {
      maxNumber = Math.max(maxNumber, field.number());
    }
    int[] index = new int[maxNumber + 1];
    String[] types = new String[maxNumber + 1];
    String[] names = new String[maxNumber + 1];
    boolean[] senderHas = new boolean[local.fieldCount()];
    java.util.Arrays.fill(index, UNKNOWN);
    for (TypeSchema.Field field : remote.fields()) {
      Integer mine = localByName.get(field.name());
      if (mine == null || field.number() <= 0) {
        continue;
      }
      senderHas[mine] = true;
      if (local.field(mine).codec().typeName().equals(field.type())) {
        index[field.number()] = mine;
      } else {
        index[field.number()] = INCOMPATIBLE;
        types[field.number()] = field.type();
        names[field.number()] = field.name();
      }
    }
    return new FieldMapping(index, types, names, senderHas);
  }

  /** The receiver's field index for sender field {@code number}, or a negative marker. */
  int localIndex(int number) {
    return number < localIndex.length ? localIndex[number] : UNKNOWN;
  }

  /** The sender's type descriptor of an incompatible field. */
  String remoteType(int number) {
    return remoteTypes[number];
  }

  /** The name of an incompatible field. */
  String remoteName(int number) {
    return remoteNames[number];
  }

  /** Whether the sender's class has receiver field {@code index}. */
  boolean senderHas(int index) {
    return senderHas[index];
  }
}
