package io.rpcx.core.internal.reflection;

import com.google.protobuf.Descriptors;
import io.rpcx.core.internal.codec.CodecShapes;
import io.rpcx.core.internal.codec.SchemaDescribed;
import io.rpcx.core.internal.codec.TypeSchema;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.model.DeclaredExceptions;
import io.rpcx.core.internal.model.MethodModel;
import io.rpcx.core.internal.model.ServiceModel;
import io.rpcx.core.reflection.FieldDescription;
import io.rpcx.core.reflection.MethodDescription;
import io.rpcx.core.reflection.ParameterDescription;
import io.rpcx.core.reflection.ServiceDescription;
import io.rpcx.core.reflection.TypeDescription;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Describes a service from its model: the same codecs that put its values on the wire give its
 * types' descriptors, field numbers and constants, so a description cannot drift from the wire.
 */
public final class ServiceDescriptions {
  private ServiceDescriptions() {}

  /** The description of {@code model}, with its protobuf message descriptors. */
  public static DescribedService describe(ServiceModel model) {
    List<MethodModel> methods = new ArrayList<>(model.methods());
    methods.sort(Comparator.comparing(method -> method.descriptor().method()));
    List<MethodDescription> described = new ArrayList<>();
    Map<String, TypeDescription> types = new TreeMap<>();
    Map<String, Descriptors.Descriptor> protobufMessages = new HashMap<>();
    Set<ValueCodec<?>> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    for (MethodModel method : methods) {
      List<ParameterDescription> parameters = new ArrayList<>();
      for (int i = 0; i < method.parameterCount(); i++) {
        ValueCodec<Object> codec = method.parameterCodecs()[i];
        parameters.add(new ParameterDescription(method.parameterName(i), codec.typeName()));
        collect(codec, seen, types, protobufMessages);
      }
      ValueCodec<Object> result = method.resultCodec();
      if (result != null) {
        collect(result, seen, types, protobufMessages);
      }
      List<String> exceptions = new ArrayList<>();
      for (Class<?> type : method.declaredExceptions()) {
        exceptions.add(type.getName());
      }
      for (DeclaredExceptions.Thrown thrown : method.thrownExceptions().all()) {
        collect(thrown.codec(), seen, types, protobufMessages); // the fields a failure carries
      }
      described.add(
          new MethodDescription(
              method.descriptor().method(),
              method.descriptor().javaMethod().getName(),
              parameters,
              method.resultTypeName(),
              // A CompletableFuture's value (a publisher's elements are a stream<T> result).
              method.descriptor().isAsync() && !method.descriptor().shape().serverStreams(),
              exceptions,
              method.descriptor().isIdempotent(),
              method.timeoutMillis(),
              !method.inheritsDeadline()));
    }
    return new DescribedService(
        new ServiceDescription(model.name(), described, new ArrayList<>(types.values())),
        protobufMessages);
  }

  private static void collect(
      ValueCodec<?> codec,
      Set<ValueCodec<?>> seen,
      Map<String, TypeDescription> types,
      Map<String, Descriptors.Descriptor> protobufMessages) {
    if (!seen.add(codec)) {
      return;
    }
    if (codec instanceof SchemaDescribed) {
      SchemaDescribed pojo = (SchemaDescribed) codec;
      TypeSchema schema = pojo.schema();
      List<FieldDescription> fields = new ArrayList<>();
      for (TypeSchema.Field field : schema.fields()) {
        fields.add(new FieldDescription(field.name(), field.number(), field.type()));
      }
      Class<?> type = pojo.describedClass();
      types.put(
          codec.typeName(),
          new TypeDescription(
              codec.typeName(),
              type.isRecord() ? TypeDescription.Kind.RECORD : TypeDescription.Kind.CLASS,
              type.getName(),
              fields,
              List.of()));
    } else if (CodecShapes.enumType(codec) != null) {
      Class<?> type = CodecShapes.enumType(codec);
      List<String> constants = new ArrayList<>();
      for (Object constant : type.getEnumConstants()) {
        constants.add(((Enum<?>) constant).name());
      }
      TypeDescription same = types.get(codec.typeName());
      if (same != null && !same.javaClass().equals(type.getName())) {
        // Two enums of one simple name are one type on the wire (a constant's name): describe
        // it as taking the constants of both, and name both classes.
        for (String constant : same.constants()) {
          if (!constants.contains(constant)) {
            constants.add(constant);
          }
        }
        types.put(
            codec.typeName(),
            new TypeDescription(
                codec.typeName(),
                TypeDescription.Kind.ENUM,
                same.javaClass() + ", " + type.getName(),
                List.of(),
                constants));
      } else {
        types.put(
            codec.typeName(),
            new TypeDescription(
                codec.typeName(), TypeDescription.Kind.ENUM, type.getName(), List.of(), constants));
      }
    } else if (CodecShapes.isProtobufMessage(codec)) {
      types.put(
          codec.typeName(),
          new TypeDescription(
              codec.typeName(),
              TypeDescription.Kind.PROTOBUF,
              CodecShapes.protobufClass(codec).getName(),
              List.of(),
              List.of()));
      Descriptors.Descriptor descriptor = CodecShapes.protobufDescriptor(codec);
      if (descriptor != null) {
        protobufMessages.put(codec.typeName(), descriptor);
      }
    }
    for (ValueCodec<?> nested : codec.nestedCodecs()) {
      collect(nested, seen, types, protobufMessages);
    }
  }
}
