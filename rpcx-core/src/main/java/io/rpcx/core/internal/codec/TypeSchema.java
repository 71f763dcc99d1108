package io.rpcx.core.internal.codec;

import java.util.List;

/**
 * How a sender numbers the fields of one POJO type: for each field its name, its number and its
 * type descriptor. Carried in SCHEMA frames (docs/PROTOCOL.md). Immutable.
 */
public final class TypeSchema {
  /** Largest field number a schema may use; also the most fields a POJO may have. */
  public static final int MAX_FIELD_NUMBER = 8191;

  private final String name;
  private final List<Field> fields;

  public TypeSchema(String name, List<Field> fields) {
    this.name = name;
    this.fields = List.copyOf(fields);
  }

  /** The type's name: the simple class name. */
  public String name() {
    return name;
  }

  public List<Field> fields() {
    return fields;
  }

  /** One field of the sender's class. */
  public static final class Field {
    private final String name;
    private final int number;
    private final String type;

    public Field(String name, int number, String type) {
      this.name = name;
      this.number = number;
      this.type = type;
    }

    public String name() {
      return name;
    }

    public int number() {
      return number;
    }

    /** Type descriptor of the field, as in {@code Argument.type}. */
    public String type() {
      return type;
    }

    @Override
    public boolean equals(Object other) {
      if (!(other instanceof Field)) {
        return false;
      }
      Field that = (Field) other;
      return number == that.number && name.equals(that.name) && type.equals(that.type);
    }

    @Override
    public int hashCode() {
      return (name.hashCode() * 31 + number) * 31 + type.hashCode();
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof TypeSchema
        && name.equals(((TypeSchema) other).name)
        && fields.equals(((TypeSchema) other).fields);
  }

  @Override
  public int hashCode() {
    return name.hashCode() * 31 + fields.hashCode();
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder(name).append('{');
    for (Field field : fields) {
      text.append(field.number).append(':').append(field.name).append(' ').append(field.type).append(';');
    }
    return text.append('}').toString();
  }
}
