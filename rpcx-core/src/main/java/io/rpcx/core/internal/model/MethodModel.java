package io.rpcx.core.internal.model;

import io.rpcx.core.MethodDescriptor;
import io.rpcx.core.internal.codec.RawValueCodec;
import io.rpcx.core.internal.codec.Schemas;
import io.rpcx.core.internal.codec.StreamCodec;
import io.rpcx.core.internal.codec.ValueCodec;
import io.rpcx.core.internal.protocol.RequestWriter;
import io.rpcx.core.internal.protocol.SchemaFrames;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Everything RPCX needs to call or serve one method, worked out once from annotations and the
 * signature: published names, codecs of parameters and result, timeout, declared exceptions, and
 * the constant bytes of the request. Immutable and thread-safe. (What changes from call to call,
 * the sizes last encoded, is kept beside it: {@code SizeHints}.)
 */
public final class MethodModel {
  private final MethodDescriptor descriptor;
  /** Whether every parameter but a stream's is bulk bytes ({@link ValueCodec#isBulkBytes}). */
  private final boolean onlyBulkBytesParameters;
  private final ValueCodec<Object>[] parameterCodecs;
  private final boolean[] primitiveParameters;
  private final String[] parameterNames;
  private final byte[][] parameterTypeNames;
  private final byte[][] parameterTypeFields;
  private final ValueCodec<Object> resultCodec;
  private final boolean primitiveResult;
  private final int streamParameterIndex;
  private final long timeoutMillis;
  private final DeclaredExceptions declaredExceptions;
  private final boolean inheritsDeadline;
  private final int routingKeyIndex;
  private final byte[] nameFields;
  private final byte[] parameterSchemas;
  private final byte[] resultSchemas;

  MethodModel(
      MethodDescriptor descriptor,
      ValueCodec<Object>[] parameterCodecs,
      String[] parameterNames,
      ValueCodec<Object> resultCodec,
      int streamParameterIndex,
      long timeoutMillis,
      DeclaredExceptions declaredExceptions,
      boolean inheritsDeadline,
      int routingKeyIndex) {
    this.descriptor = descriptor;
    this.parameterCodecs = parameterCodecs;
    this.parameterNames = parameterNames;
    this.resultCodec = resultCodec;
    this.streamParameterIndex = streamParameterIndex;
    this.timeoutMillis = timeoutMillis;
    this.declaredExceptions = declaredExceptions;
    this.inheritsDeadline = inheritsDeadline;
    this.routingKeyIndex = routingKeyIndex;
    this.nameFields = RequestWriter.nameFields(descriptor.service(), descriptor.method());
    Method javaMethod = descriptor.javaMethod();
    int count = parameterCodecs.length;
    this.primitiveParameters = new boolean[count];
    this.parameterTypeNames = new byte[count][];
    this.parameterTypeFields = new byte[count][];
    Class<?>[] javaTypes = javaMethod == null ? null : javaMethod.getParameterTypes();
    for (int i = 0; i < count; i++) {
      primitiveParameters[i] = javaTypes != null && javaTypes[i].isPrimitive();
      parameterTypeNames[i] = parameterCodecs[i].typeName().getBytes(StandardCharsets.UTF_8);
      parameterTypeFields[i] = RequestWriter.typeField(parameterCodecs[i].typeName());
    }
    boolean onlyBulkBytes = true;
    for (int i = 0; i < count; i++) {
      onlyBulkBytes &= i == streamParameterIndex || parameterCodecs[i].isBulkBytes();
    }
    this.onlyBulkBytesParameters = onlyBulkBytes;
    this.primitiveResult = javaMethod != null && javaMethod.getReturnType().isPrimitive();
    this.parameterSchemas = SchemaFrames.encode(Schemas.reachableFrom(Arrays.asList(parameterCodecs)));
    this.resultSchemas =
        SchemaFrames.encode(Schemas.reachableFrom(resultCodec == null ? List.of() : List.of(resultCodec)));
  }

  /**
   * The model of a raw call ({@code RpcxClient.call(RawCall)}): a method known only by its names and
   * type descriptors, with no Java method. Its arguments and result are whole value messages
   * ({@link RawValueCodec}); it is asynchronous, and sends no SCHEMA frame.
   *
   * @param timeoutMillis the call's own timeout, 0 for the client's default
   */
  @SuppressWarnings({"unchecked", "rawtypes"}) // an array of a generic type
  public static MethodModel raw(
      String service,
      String name,
      List<String> parameterTypes,
      String resultType,
      long timeoutMillis,
      boolean idempotent) {
    ValueCodec<Object>[] codecs = new ValueCodec[parameterTypes.size()];
    String[] names = new String[codecs.length];
    for (int i = 0; i < codecs.length; i++) {
      codecs[i] = (ValueCodec<Object>) (ValueCodec<?>) new RawValueCodec(parameterTypes.get(i));
      names[i] = "arg" + i;
    }
    return new MethodModel(
        MethodDescriptor.of(service, name, MethodDescriptor.Shape.UNARY, true, idempotent),
        codecs,
        names,
        (ValueCodec<Object>) (ValueCodec<?>) new RawValueCodec(resultType),
        -1,
        timeoutMillis,
        DeclaredExceptions.NONE,
        true,
        -1);
  }

  /**
   * SCHEMA payload describing the POJO types of the parameters, sent once per connection before
   * the first request; {@code null} when there are none. Never modify.
   */
  public byte[] parameterSchemas() {
    return parameterSchemas;
  }

  /** SCHEMA payload describing the POJO types of the result; {@code null} when there are none. */
  public byte[] resultSchemas() {
    return resultSchemas;
  }

  /** What the method is, as interceptors and integrations see it: names, shape, Java method. */
  public MethodDescriptor descriptor() {
    return descriptor;
  }

  /** {@code service/method}, for messages. */
  public String displayName() {
    return descriptor.fullName();
  }

  public int parameterCount() {
    return parameterCodecs.length;
  }

  /** Codecs of the parameters, in order. The array is shared: never modify it. */
  public ValueCodec<Object>[] parameterCodecs() {
    return parameterCodecs;
  }

  /**
   * Whether every parameter but a stream's is bulk bytes ({@link ValueCodec#isBulkBytes}): then a
   * message holding all the arguments (gRPC's request) is read where it lies.
   */
  public boolean onlyBulkBytesParameters() {
    return onlyBulkBytesParameters;
  }

  /** Whether parameter {@code index} is a primitive, which cannot take null. */
  public boolean isPrimitiveParameter(int index) {
    return primitiveParameters[index];
  }

  /** Name of parameter {@code index}: its Java name if compiled with -parameters, else argN. */
  public String parameterName(int index) {
    return parameterNames[index];
  }

  /** UTF-8 bytes of parameter {@code index}'s type descriptor. Never modify. */
  public byte[] parameterTypeName(int index) {
    return parameterTypeNames[index];
  }

  /** Encoded {@code Argument.type} fields, one per parameter. The arrays are shared: never modify. */
  public byte[][] parameterTypeFields() {
    return parameterTypeFields;
  }

  /**
   * Codec of the result, or {@code null} for a void method; for a server stream, the codec of its
   * elements.
   */
  public ValueCodec<Object> resultCodec() {
    return resultCodec;
  }

  /** Whether the result is a Java primitive, which cannot take null. */
  public boolean isPrimitiveResult() {
    return primitiveResult;
  }

  /**
   * The index of the {@code Flow.Publisher<T>} parameter, whose elements the client streams to the
   * server (a client or bidirectional stream); -1 if there is none. Its codec in {@link #parameterCodecs()} is a {@link StreamCodec}.
   */
  public int streamParameterIndex() {
    return streamParameterIndex;
  }

  /** The codec of the stream argument's elements; {@code null} if there is no stream argument. */
  public ValueCodec<Object> streamElementCodec() {
    return streamParameterIndex < 0
        ? null
        : ((StreamCodec) parameterCodecs[streamParameterIndex]).element();
  }

  /** The result's type descriptor: {@code void}, the result codec's, or {@code stream<T>}. */
  public String resultTypeName() {
    if (resultCodec == null) {
      return "void";
    }
    return descriptor.shape().serverStreams() ? "stream<" + resultCodec.typeName() + ">" : resultCodec.typeName();
  }

  /**
   * Timeout set by annotations ({@code @Method}, else {@code @RPCXClient}; for a stream of any
   * shape only its own {@code @Method}); 0 when not set.
   */
  public long timeoutMillis() {
    return timeoutMillis;
  }

  /**
   * Whether calls made while serving a call inherit its deadline: unless the method or its
   * interface is annotated {@code @OwnDeadline}.
   */
  public boolean inheritsDeadline() {
    return inheritsDeadline;
  }

  /** The index of the parameter annotated {@code @RoutingKey}, or -1. */
  public int routingKeyIndex() {
    return routingKeyIndex;
  }

  /** Checked exception classes in the method's {@code throws} clause. */
  public List<Class<?>> declaredExceptions() {
    return declaredExceptions.classes();
  }

  /** The exceptions that travel whole with a failure of this method, and how. */
  public DeclaredExceptions thrownExceptions() {
    return declaredExceptions;
  }

  /** Encoded {@code RPCXRequest} fields 2 and 3. Never modify. */
  public byte[] nameFields() {
    return nameFields;
  }

  @Override
  public String toString() {
    return descriptor.fullName();
  }
}
