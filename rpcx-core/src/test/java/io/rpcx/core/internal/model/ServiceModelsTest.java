package io.rpcx.core.internal.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.annotation.Idempotent;
import io.rpcx.annotation.Method;
import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.annotation.RoutingKey;
import io.rpcx.core.MethodDescriptor;
import io.rpcx.core.internal.codec.CodecRegistry;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Annotated types become immutable models once; every mistake fails naming class and method. */
class ServiceModelsTest {
  private final CodecRegistry codecs = StandardCodecs.registry();

  @RPCXClient(name = "orders", timeoutMillis = 2000)
  interface Orders {
    @Method(value = "loadOrder", timeoutMillis = 300)
    String find(long id) throws IOException;

    String echo(String text);

    CompletableFuture<List<String>> all();

    void fireAndWait();

    default String local() {
      return "local";
    }

    @Override
    String toString();
  }

  @Test
  void aClientInterfaceBecomesAModel() {
    ServiceModel model = ServiceModels.forClient(Orders.class, codecs);
    assertEquals("orders", model.name());
    MethodModel find = model.method("loadOrder");
    assertEquals("orders/loadOrder", find.displayName());
    assertEquals(300, find.timeoutMillis());
    assertEquals(List.of(IOException.class), find.declaredExceptions());
    assertEquals(2000, model.method("echo").timeoutMillis(), "the interface's timeout applies");
    assertTrue(model.method("all").descriptor().isAsync());
    assertEquals("list<string>", model.method("all").resultCodec().typeName());
    assertEquals(null, model.method("fireAndWait").resultCodec());
    assertEquals(4, model.methods().size(), "default and Object methods are not remote");
  }

  interface Overloaded {
    String get(int id);

    String get(String name);
  }

  @RPCXClient(name = "overloaded")
  interface OverloadedClient extends Overloaded {}

  @Test
  void duplicatePublishedNamesAreRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ServiceModels.forClient(OverloadedClient.class, codecs));
    assertEquals(
        "duplicate published method name 'get' in service 'overloaded'"
            + " (io.rpcx.core.internal.model.ServiceModelsTest$OverloadedClient):"
            + " io.rpcx.core.internal.model.ServiceModelsTest$Overloaded.get(int) and"
            + " io.rpcx.core.internal.model.ServiceModelsTest$Overloaded.get(String); give one of"
            + " them another name with @Method",
        e.getMessage());
  }

  @RPCXClient(name = "bad")
  interface UnsupportedParameter {
    void save(Object payload);
  }

  @Test
  void unsupportedParameterTypesAreRejectedNamingTheParameter() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ServiceModels.forClient(UnsupportedParameter.class, codecs));
    assertTrue(
        e.getMessage()
            .startsWith(
                "parameter 0 (payload) of"
                    + " io.rpcx.core.internal.model.ServiceModelsTest$UnsupportedParameter.save(Object):"
                    + " unsupported type java.lang.Object: Object could hold any class"),
        e.getMessage());
  }

  @RPCXClient(name = "bad")
  interface RawFuture {
    @SuppressWarnings("rawtypes")
    CompletableFuture load();
  }

  @RPCXClient(name = "bad")
  interface PlainFuture {
    Future<String> load();
  }

  @RPCXClient(name = "bad")
  interface GenericMethod {
    <T> T load(String id);
  }

  @RPCXClient(name = " ")
  interface BlankName {}

  @RPCXClient(name = "bad")
  interface TwoRoutingKeys {
    String load(@RoutingKey String a, @RoutingKey String b);
  }

  @RPCXClient(name = "bad")
  interface ObjectRoutingKey {
    String load(@RoutingKey java.util.List<String> keys);
  }

  @RPCXClient(name = "carts")
  @Idempotent
  interface IdempotentCarts {
    String load(String customer);
  }

  @RPCXClient(name = "carts")
  interface Carts {
    @Idempotent
    String load(int shard, @RoutingKey String customer);

    String add(String customer, String item);
  }

  @Test
  void idempotenceAndRoutingKeysAreReadOnceIntoTheModel() {
    ServiceModel carts = ServiceModels.forClient(Carts.class, codecs);
    assertTrue(carts.method("load").descriptor().isIdempotent());
    assertEquals(1, carts.method("load").routingKeyIndex());
    assertFalse(carts.method("add").descriptor().isIdempotent());
    assertEquals(-1, carts.method("add").routingKeyIndex());
    assertTrue(ServiceModels.forClient(IdempotentCarts.class, codecs).method("load").descriptor().isIdempotent());
  }

  interface NotAnnotated {}

  @Test
  void otherClientMistakesAreRejected() {
    assertMessage(
        RawFuture.class,
        "io.rpcx.core.internal.model.ServiceModelsTest$RawFuture.load() returns a raw"
            + " CompletableFuture: declare its value type, e.g. CompletableFuture<String>");
    assertMessage(
        PlainFuture.class,
        "io.rpcx.core.internal.model.ServiceModelsTest$PlainFuture.load() returns"
            + " java.util.concurrent.Future: asynchronous methods return CompletableFuture or"
            + " CompletionStage");
    assertMessage(
        GenericMethod.class,
        "io.rpcx.core.internal.model.ServiceModelsTest$GenericMethod.load(String) is generic:"
            + " remote methods need concrete parameter and result types");
    assertMessage(
        TwoRoutingKeys.class,
        "io.rpcx.core.internal.model.ServiceModelsTest$TwoRoutingKeys.load(String, String) has"
            + " @RoutingKey on parameters 0 and 1 (expected: at most one)");
    assertMessage(
        ObjectRoutingKey.class,
        "@RoutingKey on parameter 0 (keys) of"
            + " io.rpcx.core.internal.model.ServiceModelsTest$ObjectRoutingKey.load(List): java.util.List"
            + " has no hash that is the same in every JVM (expected: String, a primitive or its box,"
            + " an enum, or UUID)");
    assertMessage(
        BlankName.class,
        "@RPCXClient on io.rpcx.core.internal.model.ServiceModelsTest$BlankName has an empty name");
    assertMessage(
        NotAnnotated.class,
        "io.rpcx.core.internal.model.ServiceModelsTest$NotAnnotated is not annotated @RPCXClient");
    assertMessage(
        String.class,
        "java.lang.String is not an interface: RPCX client proxies implement an interface"
            + " annotated @RPCXClient");
  }

  @RPCXClient(name = "feed", timeoutMillis = 2000)
  interface Feed {
    java.util.concurrent.Flow.Publisher<String> watch(String topic);

    @Method(timeoutMillis = 700)
    java.util.stream.Stream<List<Long>> numbers(int count);
  }

  @RPCXClient(name = "feed")
  interface RawPublisher {
    @SuppressWarnings("rawtypes")
    java.util.concurrent.Flow.Publisher watch();
  }

  @RPCXClient(name = "feed")
  interface VoidStream {
    java.util.stream.Stream<Void> watch();
  }

  @Test
  void aMethodReturningAPublisherOrAStreamIsAServerStreamOfItsElementsWithOnlyItsOwnTimeout() {
    ServiceModel model = ServiceModels.forClient(Feed.class, codecs);
    MethodModel watch = model.method("watch");
    // A publisher: a server stream its caller does not wait for.
    assertEquals(MethodDescriptor.Shape.SERVER_STREAM, watch.descriptor().shape());
    assertTrue(watch.descriptor().isAsync());
    assertEquals("string", watch.resultCodec().typeName());
    assertEquals("stream<string>", watch.resultTypeName());
    // The interface's timeout does not apply to a stream, which may run for hours.
    assertEquals(0, watch.timeoutMillis());
    MethodModel numbers = model.method("numbers");
    // A java.util.stream.Stream: a server stream its caller iterates, blocking.
    assertEquals(MethodDescriptor.Shape.SERVER_STREAM, numbers.descriptor().shape());
    assertFalse(numbers.descriptor().isAsync());
    assertEquals("stream<list<int64>>", numbers.resultTypeName());
    assertEquals(700, numbers.timeoutMillis());
    MethodModel unary = ServiceModels.forClient(Orders.class, codecs).method("echo");
    assertEquals(MethodDescriptor.Shape.UNARY, unary.descriptor().shape());
    assertEquals("string", unary.resultTypeName());
    assertMessage(
        RawPublisher.class,
        "io.rpcx.core.internal.model.ServiceModelsTest$RawPublisher.watch() returns a raw"
            + " Publisher: declare its element type, e.g. Publisher<String>");
    assertMessage(
        VoidStream.class,
        "io.rpcx.core.internal.model.ServiceModelsTest$VoidStream.watch() returns a stream of"
            + " Void: a stream's elements carry values");
  }

  @RPCXClient(name = "uploads", timeoutMillis = 2000)
  interface Uploads {
    long upload(String name, java.util.concurrent.Flow.Publisher<byte[]> chunks);

    java.util.concurrent.CompletableFuture<Long> count(
        java.util.concurrent.Flow.Publisher<String> words);

    @Method(timeoutMillis = 900)
    java.util.stream.Stream<String> chat(java.util.concurrent.Flow.Publisher<String> lines);
  }

  @RPCXClient(name = "uploads")
  interface TwoStreams {
    long both(
        java.util.concurrent.Flow.Publisher<String> first,
        java.util.concurrent.Flow.Publisher<String> second);
  }

  @RPCXClient(name = "uploads")
  interface RawStreamArgument {
    @SuppressWarnings("rawtypes")
    long upload(java.util.concurrent.Flow.Publisher items);
  }

  @RPCXClient(name = "uploads")
  interface WildcardStreamArgument {
    long upload(java.util.concurrent.Flow.Publisher<? extends Number> items);
  }

  @RPCXClient(name = "uploads")
  interface UncarriedStreamArgument {
    long upload(java.util.concurrent.Flow.Publisher<Thread> items);
  }

  @Test
  void aPublisherParameterIsAStreamArgumentOfItsElementsWithOnlyItsOwnTimeout() {
    ServiceModel model = ServiceModels.forClient(Uploads.class, codecs);
    MethodModel upload = model.method("upload");
    assertEquals(MethodDescriptor.Shape.CLIENT_STREAM, upload.descriptor().shape());
    assertTrue(upload.descriptor().shape().isStream());
    assertEquals(1, upload.streamParameterIndex());
    assertEquals("stream<bytes>", upload.parameterCodecs()[1].typeName());
    assertEquals("bytes", upload.streamElementCodec().typeName());
    assertEquals("int64", upload.resultTypeName());
    assertEquals(0, upload.timeoutMillis(), "the interface's timeout does not apply to a stream");
    MethodModel count = model.method("count");
    assertTrue(count.descriptor().isAsync());
    assertEquals(0, count.streamParameterIndex());
    MethodModel chat = model.method("chat");
    assertEquals(MethodDescriptor.Shape.BIDI_STREAM, chat.descriptor().shape());
    assertFalse(chat.descriptor().isAsync());
    assertEquals(900, chat.timeoutMillis());
    String prefix = "parameter 1 (second) of io.rpcx.core.internal.model.ServiceModelsTest$";
    assertMessage(
        TwoStreams.class,
        prefix + "TwoStreams.both(Publisher, Publisher) is a second Flow.Publisher (parameter 0"
            + " (first) is one): a method takes at most one stream argument");
    assertMessage(
        RawStreamArgument.class,
        "parameter 0 (items) of io.rpcx.core.internal.model.ServiceModelsTest$RawStreamArgument"
            + ".upload(Publisher) is a raw Flow.Publisher: declare its element type, e.g."
            + " Flow.Publisher<String>");
    assertMessage(
        WildcardStreamArgument.class,
        "parameter 0 (items) of io.rpcx.core.internal.model.ServiceModelsTest$"
            + "WildcardStreamArgument.upload(Publisher) is a Flow.Publisher<? extends"
            + " java.lang.Number>: declare its element type exactly, e.g. Flow.Publisher<String>");
    IllegalArgumentException uncarried =
        assertThrows(
            IllegalArgumentException.class,
            () -> ServiceModels.forClient(UncarriedStreamArgument.class, codecs));
    assertTrue(
        uncarried.getMessage().startsWith(
            "parameter 0 (items) of io.rpcx.core.internal.model.ServiceModelsTest$"
                + "UncarriedStreamArgument.upload(Publisher): its stream elements cannot be"
                + " carried: "),
        uncarried.getMessage());
  }

  private void assertMessage(Class<?> type, String message) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ServiceModels.forClient(type, codecs));
    assertEquals(message, e.getMessage());
  }

  interface Greeter {
    @Method("hello")
    String greet(String name);

    String plain();
  }

  @RPCXServer(name = "greeter")
  static final class GreeterImpl implements Greeter, java.io.Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public String greet(String name) {
      return "hi " + name;
    }

    @Override
    @Method("simple")
    public String plain() {
      return "";
    }

    public String notPublished() {
      return "";
    }
  }

  @Test
  void aServerClassPublishesTheMethodsOfItsServiceInterfaces() {
    ServiceModel model = ServiceModels.forServer(GreeterImpl.class, codecs);
    assertEquals("greeter", model.name());
    assertNotNull(model.method("hello"), "named on the interface");
    assertNotNull(model.method("simple"), "named on the implementation");
    assertEquals(2, model.methods().size());
  }

  @RPCXServer(name = "lonely")
  static final class NoInterface implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
  }

  @RPCXServer(name = "conflicted")
  static final class Conflicting implements Greeter {
    @Override
    @Method("howdy")
    public String greet(String name) {
      return name;
    }

    @Override
    public String plain() {
      return "";
    }
  }

  @Test
  void serverMistakesAreRejected() {
    IllegalArgumentException none =
        assertThrows(
            IllegalArgumentException.class, () -> ServiceModels.forServer(NoInterface.class, codecs));
    assertEquals(
        "io.rpcx.core.internal.model.ServiceModelsTest$NoInterface is published as service"
            + " 'lonely' but implements no service interface: RPCX publishes the methods of the"
            + " interfaces a service class implements",
        none.getMessage());
    IllegalArgumentException conflict =
        assertThrows(
            IllegalArgumentException.class, () -> ServiceModels.forServer(Conflicting.class, codecs));
    assertEquals(
        "conflicting published names for"
            + " io.rpcx.core.internal.model.ServiceModelsTest$Greeter.greet(String):"
            + " @Method(\"hello\") on the interface, @Method(\"howdy\") on"
            + " io.rpcx.core.internal.model.ServiceModelsTest$Conflicting",
        conflict.getMessage());
    IllegalArgumentException unannotated =
        assertThrows(
            IllegalArgumentException.class, () -> ServiceModels.forServer(String.class, codecs));
    assertEquals(
        "java.lang.String is not annotated @RPCXServer; annotate it or register it under an"
            + " explicit service name",
        unannotated.getMessage());
  }

  @RPCXClient(name = "shop.v1.Orders")
  interface DottedService {
    @Method("find-order")
    String find(String id);

    String $count_2();
  }

  @RPCXClient(name = "shop..Orders")
  interface EmptyServicePart {}

  @RPCXClient(name = "orders/v1")
  interface SlashInService {}

  @RPCXClient(name = "orders")
  interface DotInMethod {
    @Method("find.order")
    String find(String id);
  }

  @RPCXClient(name = "orders")
  interface NonAsciiMethod {
    String größe();
  }

  @Test
  void servicesAreDottedIdentifiersAndMethodsOneIdentifierSoThatServiceSlashMethodIsOneMethod() {
    ServiceModel dotted = ServiceModels.forClient(DottedService.class, codecs);
    assertEquals("shop.v1.Orders/find-order", dotted.method("find-order").displayName());
    assertEquals("shop.v1.Orders/$count_2", dotted.method("$count_2").displayName());
    String rule =
        "(expected: ASCII letters, digits, '_', '$' and '-', starting with a letter, '_' or '$'";
    assertMessage(
        EmptyServicePart.class,
        "service name 'shop..Orders' of @RPCXClient on " + EmptyServicePart.class.getName()
            + " is not valid " + rule + ", in parts joined by single dots, such as 'orders' or"
            + " 'shop.v1.Orders')");
    assertMessage(
        SlashInService.class,
        "service name 'orders/v1' of @RPCXClient on " + SlashInService.class.getName()
            + " is not valid " + rule + ", in parts joined by single dots, such as 'orders' or"
            + " 'shop.v1.Orders')");
    assertMessage(
        DotInMethod.class,
        "method name 'find.order' of " + DotInMethod.class.getName() + ".find(String) is not"
            + " valid " + rule + ", such as 'findOrder'; publish it under a valid name with"
            + " @Method)");
    assertMessage(
        NonAsciiMethod.class,
        "method name 'größe' of " + NonAsciiMethod.class.getName() + ".größe() is not valid "
            + rule + ", such as 'findOrder'; publish it under a valid name with @Method)");
    IllegalArgumentException server =
        assertThrows(
            IllegalArgumentException.class,
            () -> ServiceModels.forServer("a b", GreeterImpl.class, codecs));
    assertEquals(
        "service name 'a b' of " + GreeterImpl.class.getName() + " is not valid " + rule
            + ", in parts joined by single dots, such as 'orders' or 'shop.v1.Orders')",
        server.getMessage());
  }

  /** A page of results; generic, so carried only with a concrete type argument. */
  static final class Page<T> {
    java.util.List<T> result;
  }

  record User(long id, String name) {}

  @RPCXClient(name = "users")
  interface Users {
    Page<User> listUser(int page);
  }

  interface Repository<T> {
    Page<T> list(int page);
  }

  @RPCXClient(name = "users")
  interface UserRepository extends Repository<User> {}

  @Test
  void aGenericValueBoundInTheSignatureIsCarriedAndATypeVariableIsRefusedNamingTheMethod() {
    assertEquals(
        "Page<User>",
        ServiceModels.forClient(Users.class, codecs).method("listUser").resultCodec().typeName());
    assertMessage(
        UserRepository.class,
        "result of " + Repository.class.getName() + ".list(int): unsupported type "
            + Page.class.getName() + "<T>: its type argument T of " + Page.class.getName()
            + "<T> is the type variable 'T', which has no concrete type; declare a concrete type");
  }
}
