package io.rpcx.testsuite.architecture;

import io.rpcx.core.internal.codec.CodecException;
import io.rpcx.core.internal.codec.CodecRegistry;
import io.rpcx.core.internal.codec.SchemaDescribed;
import java.util.List;

/**
 * API types (public, in a public package) that each name an internal type in one place of their
 * signatures: what ArchitectureTest's API rule must catch.
 */
public final class Leaks {
  private Leaks() {}

  /** As a return type. */
  public static final class ReturnType {
    /** Hands out an internal type. */
    public CodecRegistry codecs() {
      return null;
    }
  }

  /** As a parameter type. */
  public static final class ParameterType {
    /** Takes an internal type. */
    public void use(CodecRegistry codecs) {}
  }

  /** As a type argument. */
  public static final class TypeArgument {
    /** Hands out internal types in a list. */
    public List<CodecRegistry> codecs() {
      return List.of();
    }
  }

  /** As a field type. */
  public static final class FieldType {
    /** An internal type in a public field. */
    public CodecRegistry codecs;
  }

  /** As a declared exception. */
  public static final class ThrowsClause {
    /** Declares an internal exception. */
    public void run() throws CodecException {}
  }

  /** As a supertype. */
  public abstract static class Supertype implements SchemaDescribed {}

  /** As a protected member of a class users may extend. */
  public abstract static class ProtectedMember {
    /** Visible to subclasses. */
    protected abstract CodecRegistry codecs();
  }
}
