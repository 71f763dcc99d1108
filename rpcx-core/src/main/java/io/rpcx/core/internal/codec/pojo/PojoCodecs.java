package io.rpcx.core.internal.codec.pojo;

import io.rpcx.core.internal.codec.CodecFactory;
import io.rpcx.core.internal.codec.CodecResolver;
import io.rpcx.core.internal.codec.Types;
import io.rpcx.core.internal.codec.UnsupportedTypeException;
import io.rpcx.core.internal.codec.ValueCodec;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Codecs of POJOs (classes with a no-argument constructor, read and written through their fields)
 * and records (read through their accessors, created through their canonical constructor). Each
 * becomes a protobuf message whose fields are numbered by sorted field name; everything about the
 * class is worked out here, once, and a class that cannot be carried is rejected with the reason.
 *
 * <p>A generic class is carried when the signature binds every type parameter to a concrete type
 * ({@code Page<User>}): its fields' types are then known at start-up as for any class, and each
 * parameterization is a codec of its own, named on the wire {@code Page<User>}.
 */
public final class PojoCodecs implements CodecFactory {
  /** POJO classes by simple name: the wire names types by simple name, so two must not collide. */
  private final Map<String, Class<?>> bySimpleName = new HashMap<>();

  @Override
  public String description() {
    return "POJOs (concrete classes with a no-argument constructor) and records";
  }

  @Override
  public ValueCodec<?> create(Type type, CodecResolver resolver) {
    Class<?> raw;
    Type[] arguments = null;
    if (type instanceof ParameterizedType && ((ParameterizedType) type).getRawType() instanceof Class) {
      raw = (Class<?>) ((ParameterizedType) type).getRawType();
      arguments = ((ParameterizedType) type).getActualTypeArguments();
    } else if (type instanceof Class) {
      raw = (Class<?>) type;
      if (raw.isPrimitive() || raw.isArray()) {
        return null;
      }
    } else {
      return null;
    }
    if (raw == Object.class) {
      throw new UnsupportedTypeException(
          raw.getName(),
          "Object could hold any class, and RPCX never lets the wire choose a class; declare a"
              + " concrete type");
    }
    if (raw.isInterface() || Modifier.isAbstract(raw.getModifiers())) {
      throw new UnsupportedTypeException(
          Types.name(type),
          (raw.isInterface() ? "an interface" : "an abstract class")
              + " could be implemented by any class, and RPCX never lets the wire choose a class;"
              + " declare a concrete class");
    }
    if (isJdkClass(raw)) {
      throw new UnsupportedTypeException(
          Types.name(type), "this JDK class is not a supported value type");
    }
    if (raw.isAnonymousClass() || raw.isLocalClass()
        || (raw.isMemberClass() && !Modifier.isStatic(raw.getModifiers()))) {
      throw new UnsupportedTypeException(
          raw.getName(),
          "an inner class cannot be created without its enclosing instance; make it a static"
              + " nested class or a top-level class");
    }
    if (Throwable.class.isAssignableFrom(raw)) {
      throw new UnsupportedTypeException(
          raw.getName(), "exceptions are not values; declare them in the throws clause instead");
    }
    String typeName = raw.getSimpleName();
    if (raw.getTypeParameters().length > 0) {
      if (arguments == null) {
        throw new UnsupportedTypeException(
            raw.getName(),
            "a generic class needs its type arguments; declare it with concrete ones, e.g. "
                + raw.getSimpleName() + "<String>");
      }
      typeName = genericName(raw, type, arguments, resolver);
    }
    Class<?> sameName = bySimpleName.putIfAbsent(raw.getSimpleName(), raw);
    if (sameName != null && sameName != raw) {
      throw new UnsupportedTypeException(
          raw.getName(),
          "another class is also named '" + raw.getSimpleName() + "' (" + sameName.getName()
              + "): RPCX names POJO types on the wire by simple name; rename one of them");
    }
    Map<TypeVariable<?>, Type> bindings = Types.bindings(raw, arguments);
    return raw.isRecord()
        ? record(type, raw, typeName, bindings, resolver)
        : bean(type, raw, typeName, bindings, resolver);
  }

  /**
   * The codec of a declared exception: its fields (those of its class and its superclasses up to
   * the first of the JDK's, whose fields, message and stack trace included, are never carried) as
   * a class's, numbered by sorted name, and the constructor it is rebuilt through ({@link
   * ExceptionConstructor}). A JDK exception ({@code IOException}) carries no field and is rebuilt
   * through its public {@code (String)} or no-argument constructor.
   */
  @Override
  public ValueCodec<?> createException(Class<?> type, CodecResolver resolver) {
    if (!Throwable.class.isAssignableFrom(type)) {
      return null;
    }
    if (Modifier.isAbstract(type.getModifiers())) {
      throw new UnsupportedTypeException(
          type.getName(),
          "an abstract exception cannot be created on the receiving side; declare the concrete"
              + " exceptions the method throws, or make it sealed (its permitted subclasses are"
              + " then carried)");
    }
    if (type.isAnonymousClass() || type.isLocalClass()
        || (type.isMemberClass() && !Modifier.isStatic(type.getModifiers()))) {
      throw new UnsupportedTypeException(
          type.getName(),
          "an inner class cannot be created without its enclosing instance; make it a static"
              + " nested class or a top-level class");
    }
    boolean open = !isJdkClass(type);
    List<Field> declared = open ? exceptionFields(type) : List.of();
    List<Field> sorted = new ArrayList<>(declared);
    sorted.sort(Comparator.comparing(Field::getName));
    ExceptionConstructor rebuilt = ExceptionConstructor.of(type, declared, sorted, open);
    @SuppressWarnings("unchecked")
    Constructor<Object> constructor = (Constructor<Object>) rebuilt.constructor();
    if (open) {
      try {
        constructor.setAccessible(true);
      } catch (RuntimeException e) {
        throw inaccessible(type, "its constructor " + constructor, e);
      }
    }
    Class<?> sameName = bySimpleName.putIfAbsent(type.getSimpleName(), type);
    if (sameName != null && sameName != type) {
      throw new UnsupportedTypeException(
          type.getName(),
          "another class is also named '" + type.getSimpleName() + "' (" + sameName.getName()
              + "): RPCX names types on the wire by simple name; rename one of them");
    }
    @SuppressWarnings("unchecked")
    Class<Object> raw = (Class<Object>) type;
    PojoCodec<Object> codec =
        PojoCodec.forException(
            raw, constructor, rebuilt.fieldParameters(), rebuilt.messageParameter());
    PojoField[] fields = new PojoField[sorted.size()];
    for (int i = 0; i < fields.length; i++) {
      Field field = sorted.get(i);
      ValueCodec<?> fieldCodec =
          resolver.resolve(
              field.getGenericType(),
              "field '" + field.getName() + "' of " + field.getDeclaringClass().getName());
      fields[i] = PojoField.reflective(field, i + 1, fieldCodec);
    }
    codec.link(fields, null);
    return codec;
  }

  /**
   * The fields an exception carries, in declaration order, a superclass's first: those of its
   * class and superclasses up to the first of the JDK's, but static, transient and synthetic
   * ones; opened for reading.
   */
  private static List<Field> exceptionFields(Class<?> type) {
    List<Class<?>> hierarchy = new ArrayList<>();
    for (Class<?> c = type; !isJdkClass(c); c = c.getSuperclass()) {
      hierarchy.add(0, c);
    }
    List<Field> fields = new ArrayList<>();
    Map<String, Class<?>> declaredBy = new HashMap<>();
    for (Class<?> c : hierarchy) {
      for (Field field : c.getDeclaredFields()) {
        int modifiers = field.getModifiers();
        if (Modifier.isStatic(modifiers) || Modifier.isTransient(modifiers) || field.isSynthetic()) {
          continue;
        }
        Class<?> previous = declaredBy.putIfAbsent(field.getName(), c);
        if (previous != null) {
          throw new UnsupportedTypeException(
              type.getName(),
              "field '" + field.getName() + "' is declared both by " + previous.getName()
                  + " and by " + c.getName() + "; rename one of them");
        }
        try {
          field.setAccessible(true);
        } catch (RuntimeException e) {
          throw inaccessible(type, "field '" + field.getName() + "'", e);
        }
        fields.add(field);
      }
    }
    return fields;
  }

  /**
   * The wire name of a generic class with these type arguments, {@code Page<User>} or {@code
   * Result<list<Order>>}: its simple name, then the descriptors of its type arguments. Every
   * argument must be a concrete type, so that what is created is known from the signature alone.
   */
  private static String genericName(
      Class<?> raw, Type type, Type[] arguments, CodecResolver resolver) {
    StringBuilder name = new StringBuilder(raw.getSimpleName()).append('<');
    TypeVariable<?>[] parameters = raw.getTypeParameters();
    for (int i = 0; i < arguments.length; i++) {
      String role = "type argument " + parameters[i].getName() + " of " + Types.name(type);
      if (arguments[i] instanceof WildcardType) {
        throw new UnsupportedTypeException(
            Types.name(type),
            "its " + role + " is the wildcard '" + arguments[i].getTypeName() + "', which names"
                + " no class to create; declare a concrete type");
      }
      if (arguments[i] instanceof TypeVariable) {
        throw new UnsupportedTypeException(
            Types.name(type),
            "its " + role + " is the type variable '" + arguments[i].getTypeName() + "', which"
                + " has no concrete type; declare a concrete type");
      }
      name.append(i == 0 ? "" : ",").append(resolver.resolve(arguments[i], role).typeName());
    }
    return name.append('>').toString();
  }

  private static boolean isJdkClass(Class<?> raw) {
    String name = raw.getName();
    return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
        || name.startsWith("sun.") || name.startsWith("com.sun.");
  }

  private static <T> PojoCodec<T> bean(
      Type type, Class<T> raw, String typeName, Map<TypeVariable<?>, Type> bindings,
      CodecResolver resolver) {
    Constructor<T> constructor;
    try {
      constructor = raw.getDeclaredConstructor();
      constructor.setAccessible(true);
    } catch (NoSuchMethodException e) {
      throw new UnsupportedTypeException(
          raw.getName(),
          "it has no no-argument constructor to create it with; add one (it may be private) or"
              + " make it a record");
    } catch (RuntimeException e) {
      throw inaccessible(raw, "its no-argument constructor", e);
    }
    List<Field> fields = new ArrayList<>();
    Map<String, Class<?>> declaredBy = new HashMap<>();
    for (Class<?> c = raw; c != Object.class; c = c.getSuperclass()) {
      if (isJdkClass(c)) {
        throw new UnsupportedTypeException(
            raw.getName(),
            "it extends the JDK class " + c.getName() + ", whose fields RPCX does not read");
      }
      for (Field field : c.getDeclaredFields()) {
        int modifiers = field.getModifiers();
        if (Modifier.isStatic(modifiers) || Modifier.isTransient(modifiers) || field.isSynthetic()) {
          continue;
        }
        Class<?> previous = declaredBy.putIfAbsent(field.getName(), c);
        if (previous != null) {
          throw new UnsupportedTypeException(
              raw.getName(),
              "field '" + field.getName() + "' is declared both by " + previous.getName()
                  + " and by " + c.getName() + "; rename one of them");
        }
        try {
          field.setAccessible(true);
        } catch (RuntimeException e) {
          throw inaccessible(raw, "field '" + field.getName() + "'", e);
        }
        fields.add(field);
      }
    }
    fields.sort(Comparator.comparing(Field::getName));
    PojoCodec<T> codec = PojoCodec.forClass(raw, typeName, constructor);
    resolver.registerInProgress(type, codec);
    PojoField[] pojoFields = new PojoField[fields.size()];
    ValueCodec<?>[] fieldCodecs = new ValueCodec<?>[fields.size()];
    for (int i = 0; i < pojoFields.length; i++) {
      Field field = fields.get(i);
      fieldCodecs[i] =
          resolver.resolve(
              Types.substitute(field.getGenericType(), bindings),
              "field '" + field.getName() + "' of " + field.getDeclaringClass().getName());
      // A field the class's accessor reads and writes itself needs no generated field of its own.
      pojoFields[i] =
          GeneratedAccessors.accessesDirectly(raw, field)
              ? PojoField.reflective(field, i + 1, fieldCodecs[i])
              : PojoField.forField(field, i + 1, fieldCodecs[i]);
    }
    PojoAccessor accessor = GeneratedAccessors.forClass(raw, fields, pojoFields);
    if (accessor == null) {
      for (int i = 0; i < pojoFields.length; i++) {
        if (GeneratedAccessors.accessesDirectly(raw, fields.get(i))) {
          pojoFields[i] = PojoField.forField(fields.get(i), i + 1, fieldCodecs[i]);
        }
      }
    }
    codec.link(pojoFields, accessor);
    return codec;
  }

  private static <T> PojoCodec<T> record(
      Type type, Class<T> raw, String typeName, Map<TypeVariable<?>, Type> bindings,
      CodecResolver resolver) {
    RecordComponent[] components = raw.getRecordComponents();
    Class<?>[] componentTypes = new Class<?>[components.length];
    for (int i = 0; i < components.length; i++) {
      componentTypes[i] = components[i].getType();
    }
    Constructor<T> canonical;
    try {
      canonical = raw.getDeclaredConstructor(componentTypes);
      canonical.setAccessible(true);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException("a record without canonical constructor: " + raw, e);
    } catch (RuntimeException e) {
      throw inaccessible(raw, "its canonical constructor", e);
    }
    List<RecordComponent> sorted = new ArrayList<>(List.of(components));
    sorted.sort(Comparator.comparing(RecordComponent::getName));
    int[] constructorPosition = new int[components.length];
    for (int i = 0; i < sorted.size(); i++) {
      for (int j = 0; j < components.length; j++) {
        if (components[j].getName().equals(sorted.get(i).getName())) {
          constructorPosition[i] = j;
        }
      }
    }
    PojoCodec<T> codec = PojoCodec.forRecord(raw, typeName, canonical, constructorPosition);
    resolver.registerInProgress(type, codec);
    PojoField[] fields = new PojoField[sorted.size()];
    for (int i = 0; i < fields.length; i++) {
      RecordComponent component = sorted.get(i);
      Method componentAccessor = component.getAccessor();
      try {
        componentAccessor.setAccessible(true);
      } catch (RuntimeException e) {
        throw inaccessible(raw, "component '" + component.getName() + "'", e);
      }
      ValueCodec<?> fieldCodec =
          resolver.resolve(
              Types.substitute(component.getGenericType(), bindings),
              "component '" + component.getName() + "' of " + raw.getName());
      fields[i] =
          PojoField.forRecordComponent(component.getName(), componentAccessor, i + 1, fieldCodec);
    }
    codec.link(fields, recordAccessor(raw, canonical, sorted, fields));
    return codec;
  }

  /**
   * The generated accessor of a record, or {@code null}. It calls the components' accessor
   * methods itself and writes their values with the helpers of field kinds made over the
   * components' fields (only their tags and codecs are used, never the fields); the components it
   * does not call directly go through {@code fields}.
   */
  private static PojoAccessor recordAccessor(
      Class<?> raw, Constructor<?> canonical, List<RecordComponent> sorted, PojoField[] fields) {
    List<Field> componentFields = new ArrayList<>();
    PojoField[] helpers = fields.clone();
    try {
      for (int i = 0; i < fields.length; i++) {
        Field field = raw.getDeclaredField(sorted.get(i).getName());
        componentFields.add(field);
        if (GeneratedAccessors.accessesDirectly(raw, field)) {
          helpers[i] = PojoField.reflective(field, i + 1, fields[i].codec());
        }
      }
    } catch (NoSuchFieldException e) {
      return null; // not a record javac compiled: components without fields of the same names
    }
    return GeneratedAccessors.forRecord(raw, canonical, componentFields, helpers);
  }

  private static UnsupportedTypeException inaccessible(
      Class<?> raw, String what, RuntimeException cause) {
    return new UnsupportedTypeException(
        raw.getName(),
        "RPCX cannot access " + what + " (" + cause.getMessage() + "); open the package to RPCX");
  }
}
