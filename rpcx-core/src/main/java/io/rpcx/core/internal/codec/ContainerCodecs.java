package io.rpcx.core.internal.codec;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

/**
 * Codecs of arrays, collections, maps and {@code Optional}. Each collection or map is a nested
 * message (docs/PROTOCOL.md, "Values"), so a null collection and an empty one stay distinct and
 * containers nest in containers.
 */
final class ContainerCodecs implements CodecFactory {

  /** How a decoded list of elements becomes the declared collection type. */
  private static final Map<Class<?>, Function<ArrayList<Object>, Collection<Object>>> COLLECTIONS =
      new HashMap<>();

  /** How the declared map type is created. */
  private static final Map<Class<?>, Function<Integer, Map<Object, Object>>> MAPS = new HashMap<>();

  static {
    Function<ArrayList<Object>, Collection<Object>> asList = list -> list;
    COLLECTIONS.put(Iterable.class, asList);
    COLLECTIONS.put(Collection.class, asList);
    COLLECTIONS.put(List.class, asList);
    COLLECTIONS.put(ArrayList.class, asList);
    COLLECTIONS.put(LinkedList.class, LinkedList::new);
    Function<ArrayList<Object>, Collection<Object>> asSet = LinkedHashSet::new;
    COLLECTIONS.put(Set.class, asSet);
    COLLECTIONS.put(HashSet.class, asSet);
    COLLECTIONS.put(LinkedHashSet.class, asSet);
    Function<ArrayList<Object>, Collection<Object>> asSortedSet = TreeSet::new;
    COLLECTIONS.put(SortedSet.class, asSortedSet);
    COLLECTIONS.put(NavigableSet.class, asSortedSet);
    COLLECTIONS.put(TreeSet.class, asSortedSet);

    Function<Integer, Map<Object, Object>> linked = LinkedHashMap::new;
    MAPS.put(Map.class, linked);
    MAPS.put(HashMap.class, linked);
    MAPS.put(LinkedHashMap.class, linked);
    Function<Integer, Map<Object, Object>> sorted = size -> new TreeMap<>();
    MAPS.put(SortedMap.class, sorted);
    MAPS.put(NavigableMap.class, sorted);
    MAPS.put(TreeMap.class, sorted);
    Function<Integer, Map<Object, Object>> concurrent = ConcurrentHashMap::new;
    MAPS.put(ConcurrentMap.class, concurrent);
    MAPS.put(ConcurrentHashMap.class, concurrent);
  }

  @Override
  public String description() {
    return "arrays, collections (List, Set, SortedSet...), maps (Map, SortedMap...) and Optional";
  }

  @Override
  public ValueCodec<?> create(Type type, CodecResolver resolver) {
    if (type instanceof GenericArrayType) {
      Type component = ((GenericArrayType) type).getGenericComponentType();
      return objectArray(Types.rawType(component), component, type, resolver);
    }
    Class<?> raw = Types.rawType(type);
    if (raw.isArray()) {
      Class<?> component = raw.getComponentType();
      if (component.isPrimitive()) {
        return PrimitiveArrayCodecs.forComponent(component);
      }
      return objectArray(component, component, type, resolver);
    }
    boolean collection = COLLECTIONS.containsKey(raw);
    boolean map = MAPS.containsKey(raw);
    boolean optional = raw == Optional.class;
    if (!collection && !map && !optional) {
      return null;
    }
    if (!(type instanceof ParameterizedType)) {
      throw new UnsupportedTypeException(
          Types.name(type),
          "a raw " + raw.getSimpleName() + " has no element type; declare it, e.g. "
              + raw.getSimpleName() + (map ? "<String, Long>" : "<String>"));
    }
    ParameterizedType parameterized = (ParameterizedType) type;
    if (optional) {
      ValueCodec<?> value = element(Types.typeArgument(parameterized, 0), type, "value", resolver);
      return new OptionalCodec<>(value);
    }
    if (collection) {
      ValueCodec<?> element =
          element(Types.typeArgument(parameterized, 0), type, "element", resolver);
      if (SortedSet.class.isAssignableFrom(raw)) {
        requireComparable(Types.typeArgument(parameterized, 0), type);
      }
      return new CollectionCodec<>(element, COLLECTIONS.get(raw));
    }
    Type keyType = Types.typeArgument(parameterized, 0);
    if (SortedMap.class.isAssignableFrom(raw)) {
      requireComparable(keyType, type);
    }
    ValueCodec<?> key = element(keyType, type, "key", resolver);
    ValueCodec<?> value = element(Types.typeArgument(parameterized, 1), type, "value", resolver);
    return new MapCodec<>(key, value, MAPS.get(raw));
  }

  private static ValueCodec<?> objectArray(
      Class<?> rawComponent, Type component, Type arrayType, CodecResolver resolver) {
    ValueCodec<?> element = element(component, arrayType, "element", resolver);
    return new ObjectArrayCodec<>(element, rawComponent);
  }

  private static ValueCodec<?> element(
      Type elementType, Type container, String role, CodecResolver resolver) {
    if (Types.rawType(elementType) == Optional.class) {
      throw new UnsupportedTypeException(
          Types.name(container),
          "Optional cannot be the " + role + " of a container; use the " + role
              + " type itself (a container may hold nulls)");
    }
    return resolver.resolve(elementType, role + " of " + Types.name(container));
  }

  private static void requireComparable(Type elementType, Type container) {
    Class<?> raw = Types.rawType(elementType);
    if (!raw.isPrimitive() && !Comparable.class.isAssignableFrom(raw)) {
      throw new UnsupportedTypeException(
          Types.name(container),
          "a sorted collection needs Comparable elements, and " + raw.getName() + " is not");
    }
  }
}
