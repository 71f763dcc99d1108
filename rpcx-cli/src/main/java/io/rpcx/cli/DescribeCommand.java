package io.rpcx.cli;

import io.rpcx.core.reflection.FieldDescription;
import io.rpcx.core.reflection.MethodDescription;
import io.rpcx.core.reflection.ServiceDescription;
import io.rpcx.core.reflection.TypeDescription;
import io.rpcx.http.JsonMapping;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code rpcx describe HOST:PORT SERVICE[/METHOD]}: methods and the types they carry. */
@Command(
    name = "describe",
    mixinStandardHelpOptions = true,
    description = "Describes a service (or one method): signatures, and the fields of the types"
        + " they carry with their field numbers.")
final class DescribeCommand implements Runnable {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "HOST:PORT", description = "The server.")
  String address;

  @Parameters(index = "1", paramLabel = "SERVICE[/METHOD]", description = "What to describe.")
  String target;

  @Option(names = "--json", description = "Prints the description as JSON.")
  boolean json;

  @Mixin ConnectionOptions connection;

  @Override
  public void run() {
    int slash = target.lastIndexOf('/');
    String serviceName = slash < 0 ? target : target.substring(0, slash);
    String methodName = slash < 0 ? null : target.substring(slash + 1);
    if (serviceName.isEmpty() || (methodName != null && methodName.isEmpty())) {
      throw UserError.usage("bad name '" + target
          + "' (expected: SERVICE or SERVICE/METHOD, such as orders or orders/findOrder)");
    }
    PrintWriter out = spec.commandLine().getOut();
    try (Remote remote = Remote.connect(address, connection, 1)) {
      ServiceDescription service = remote.describe(serviceName);
      List<MethodDescription> methods =
          methodName == null ? service.methods() : List.of(Remote.method(service, methodName));
      List<TypeDescription> types = JsonMapping.of(service).reachableTypes(methods);
      if (json) {
        Object description =
            methodName == null
                ? service
                : new ServiceDescription(service.name(), methods, types);
        out.println(Json.write(description));
        return;
      }
      out.println("service " + service.name());
      for (MethodDescription method : methods) {
        out.println("  " + line(method));
      }
      for (TypeDescription type : types) {
        out.println();
        out.println(header(type));
        for (FieldDescription field : type.fields()) {
          out.printf(Locale.ROOT, "  %-3d %-24s %s%n", field.number(), field.name(), field.type());
        }
        if (!type.constants().isEmpty()) {
          out.println("  " + String.join(", ", type.constants()));
        }
      }
    }
  }

  private static String line(MethodDescription method) {
    StringBuilder text = new StringBuilder(method.signature());
    if (!method.declaredExceptions().isEmpty()) {
      text.append(" throws ").append(String.join(", ", method.declaredExceptions()));
    }
    List<String> notes = new ArrayList<>();
    if (method.idempotent()) {
      notes.add("idempotent");
    }
    if (method.timeoutMillis() > 0) {
      notes.add("timeout " + method.timeoutMillis() + " ms");
    }
    if (method.ownDeadline()) {
      notes.add("own deadline");
    }
    if (!method.javaName().equals(method.name())) {
      notes.add("Java method " + method.javaName());
    }
    if (!notes.isEmpty()) {
      text.append("  [").append(String.join(", ", notes)).append(']');
    }
    return text.toString();
  }

  private static String header(TypeDescription type) {
    String kind = type.kind().name().toLowerCase(Locale.ROOT);
    return kind + " " + type.name() + " (" + type.javaClass() + ")";
  }
}
