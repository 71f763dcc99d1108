package io.rpcx.cli;

import io.rpcx.client.RpcxClient;
import io.rpcx.core.RpcxException;
import io.rpcx.core.StatusCode;
import io.rpcx.core.reflection.MethodDescription;
import io.rpcx.core.reflection.ReflectionService;
import io.rpcx.core.reflection.ServiceDescription;
import io.rpcx.core.reflection.TypeDescription;
import io.rpcx.http.JsonMapping;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * One server as the commands see it: a client connected to it and its reflection service, with
 * every failure turned into a one-line {@link UserError} and its exit code. Close it when done.
 */
final class Remote implements AutoCloseable {
  private final Address address;
  private final RpcxClient client;
  private final ReflectionService reflection;
  /** Whether a call was answered: from then on, UNAVAILABLE is a status, not "cannot connect". */
  private volatile boolean connected;

  private Remote(Address address, RpcxClient client) {
    this.address = address;
    this.client = client;
    this.reflection = client.create(ReflectionService.class);
  }

  /** Connects to {@code address} as {@code options} say ({@code ioThreads} network threads). */
  static Remote connect(String address, ConnectionOptions options, int ioThreads) {
    Address parsed = Address.parse(address);
    return new Remote(parsed, options.connect(parsed, ioThreads));
  }

  RpcxClient client() {
    return client;
  }

  Address address() {
    return address;
  }

  /** The services the server publishes, sorted. */
  List<String> services() {
    return reflect("the list of services", reflection::listServices);
  }

  /**
   * The service published as {@code name}.
   *
   * @throws UserError with the NOT_FOUND exit code, listing the services there are, if none
   */
  ServiceDescription describe(String name) {
    return reflect("the description of service '" + name + "'", () -> reflection.describe(name))
        .orElseThrow(() -> new UserError(ExitCodes.of(StatusCode.NOT_FOUND),
            "NOT_FOUND: " + address + " publishes no service '" + name + "' (it publishes: "
                + String.join(", ", publishedServices()) + ")"));
  }

  /**
   * The method {@code name} of {@code service}.
   *
   * @throws UserError with the NOT_FOUND exit code, listing the methods there are, if none
   */
  static MethodDescription method(ServiceDescription service, String name) {
    MethodDescription method = service.method(name);
    if (method == null) {
      List<String> names = new ArrayList<>();
      for (MethodDescription each : service.methods()) {
        names.add(each.name());
      }
      throw new UserError(ExitCodes.of(StatusCode.NOT_FOUND),
          "NOT_FOUND: service '" + service.name() + "' has no method '" + name
              + "' (its methods: " + String.join(", ", names) + ")");
    }
    return method;
  }

  /**
   * The JSON mapping of {@code service}'s values; with the descriptors of its protobuf messages
   * (from the server's {@code FileDescriptorSet}) when it carries any.
   */
  JsonMapping jsonMapping(ServiceDescription service) {
    for (TypeDescription type : service.types()) {
      if (type.kind() == TypeDescription.Kind.PROTOBUF) {
        byte[] set =
            reflect(
                "the protobuf descriptors of service '" + service.name() + "'",
                () -> reflection.fileDescriptorSet(service.name()));
        try {
          return JsonMapping.of(service, set);
        } catch (IllegalArgumentException e) {
          throw new UserError(ExitCodes.SOFTWARE, e.getMessage());
        }
      }
    }
    return JsonMapping.of(service);
  }

  /** The {@code .proto} files of {@code service}, by file name, its own first. */
  Map<String, String> protoFiles(String service) {
    describe(service); // an unknown service fails as NOT_FOUND, naming those there are
    return reflect(
        "the .proto files of service '" + service + "'", () -> reflection.protoFiles(service));
  }

  private List<String> publishedServices() {
    List<String> services = new ArrayList<>(services());
    services.remove(ReflectionService.NAME);
    return services;
  }

  /**
   * A look-up of {@code what} through the server's reflection service: rpcx's own call, which a
   * failure names as such (the user never called {@code rpcx.reflection.v1.Reflection}).
   */
  private <T> T reflect(String what, Supplier<T> call) {
    try {
      T result = call.get();
      connected = true;
      return result;
    } catch (RpcxException e) {
      UserError failure = failure(e);
      if (failure.exitCode() == ExitCodes.CONNECT) {
        throw failure;
      }
      if (e.status() == StatusCode.NOT_FOUND && e.getMessage().contains(ReflectionService.NAME)) {
        throw new UserError(ExitCodes.of(StatusCode.NOT_FOUND),
            "NOT_FOUND: " + address + " has no reflection service (its server must publish it:"
                + " RpcxServer.builder().reflection(true), or rpcx.server.reflection=true with the"
                + " Spring Boot starter)");
      }
      throw new UserError(failure.exitCode(),
          failure.getMessage() + " (rpcx's look-up of " + what + " in the server's reflection"
              + " service)");
    }
  }

  /**
   * What {@code thrown} (a call's failure, possibly wrapped by a future) means for the user: a
   * {@link UserError} with its exit code; anything but an {@link RpcxException} is a bug and is
   * rethrown.
   */
  UserError failure(Throwable thrown) {
    Throwable cause = thrown;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (!(cause instanceof RpcxException)) {
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      throw new IllegalStateException(cause);
    }
    RpcxException failure = (RpcxException) cause;
    String message = failure.getMessage();
    if (failure.status() == StatusCode.UNAVAILABLE && !connected) {
      // "x/y was not sent to host:port: why" says more about the client than the user needs.
      String notSent = " was not sent to ";
      int at = message.indexOf(notSent);
      if (at >= 0 && message.indexOf(": ", at + notSent.length()) >= 0) {
        message = message.substring(message.indexOf(": ", at + notSent.length()) + 2);
      }
      return new UserError(ExitCodes.CONNECT,
          message.startsWith("cannot connect to ") ? message
              : "cannot connect to " + address + ": " + message);
    }
    return new UserError(ExitCodes.of(failure.status()), failure.status() + ": " + message);
  }

  @Override
  public void close() {
    client.close();
  }
}
