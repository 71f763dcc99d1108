package io.rpcx.http.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * A parsed RPCX type descriptor ({@code docs/PROTOCOL.md}, section 2.1): a name and its type
 * arguments, {@code list<OrderItem>} being {@code list} with {@code OrderItem}. Immutable.
 *
 * @param text the descriptor as the server wrote it, which is how described types are looked up
 * @param name the part before {@code <}
 * @param arguments the type arguments, empty for none
 */
public record TypeRef(String text, String name, List<TypeRef> arguments) {
  public TypeRef {
    arguments = List.copyOf(arguments);
  }

  /**
   * Parses {@code descriptor}.
   *
   * @throws IllegalArgumentException naming the descriptor if it is not one
   */
  public static TypeRef parse(String descriptor) {
    Parser parser = new Parser(descriptor);
    TypeRef type = parser.type();
    if (parser.position != descriptor.length()) {
      throw parser.error();
    }
    return type;
  }

  /** The type argument {@code index}. */
  public TypeRef argument(int index) {
    return arguments.get(index);
  }

  public boolean isList() {
    return name.equals("list") && arguments.size() == 1;
  }

  public boolean isMap() {
    return name.equals("map") && arguments.size() == 2;
  }

  @Override
  public String toString() {
    return text;
  }

  private static final class Parser {
    private final String text;
    private int position;

    Parser(String text) {
      this.text = text;
    }

    TypeRef type() {
      skipSpaces();
      int start = position;
      while (position < text.length() && isNameChar(text.charAt(position))) {
        position++;
      }
      if (position == start) {
        throw error();
      }
      String name = text.substring(start, position);
      List<TypeRef> arguments = new ArrayList<>();
      skipSpaces();
      if (position < text.length() && text.charAt(position) == '<') {
        position++;
        while (true) {
          arguments.add(type());
          skipSpaces();
          if (position >= text.length()) {
            throw error();
          }
          char next = text.charAt(position++);
          if (next == '>') {
            break;
          }
          if (next != ',') {
            throw error();
          }
        }
      }
      int end = position;
      skipSpaces();
      return new TypeRef(text.substring(start, end).strip(), name, arguments);
    }

    private void skipSpaces() {
      while (position < text.length() && text.charAt(position) == ' ') {
        position++;
      }
    }

    private static boolean isNameChar(char c) {
      return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c == '.';
    }

    IllegalArgumentException error() {
      return new IllegalArgumentException(
          "'" + text + "' is not an RPCX type descriptor (at character " + position + ")");
    }
  }
}
