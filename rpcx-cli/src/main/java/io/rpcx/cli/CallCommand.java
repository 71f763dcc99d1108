package io.rpcx.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.rpcx.client.RawCall;
import io.rpcx.core.StatusCode;
import io.rpcx.core.reflection.MethodDescription;
import io.rpcx.core.reflection.ServiceDescription;
import io.rpcx.http.JsonMapping;
import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code rpcx call HOST:PORT SERVICE/METHOD '[json arguments]'}: one call, its result as JSON. */
@Command(
    name = "call",
    mixinStandardHelpOptions = true,
    description = {
      "Calls a method with arguments given as a JSON array, one element per parameter, and prints"
          + " its result as JSON.",
      "Values as a user types them: numbers, strings, true/false, objects for POJOs, records and"
          + " maps, arrays for lists; enums by constant name; timestamps, durations and dates as"
          + " ISO-8601 strings (\"2024-05-01T10:00:00Z\", \"PT1.5S\", \"2024-05-01\"); bytes as"
          + " base64; uuids and decimals as strings."
    })
final class CallCommand implements Runnable {
  @Spec CommandSpec spec;

  @ParentCommand RpcxCli root;

  @Parameters(index = "0", paramLabel = "HOST:PORT", description = "The server.")
  String address;

  @Parameters(index = "1", paramLabel = "SERVICE/METHOD", description = "The method to call.")
  String method;

  @Parameters(
      index = "2",
      arity = "0..1",
      paramLabel = "JSON",
      description = "The arguments, a JSON array such as '[42, \"text\"]'; '-' reads stdin."
          + " Default: [].")
  String arguments;

  @Option(
      names = {"-d", "--data"},
      paramLabel = "JSON|@FILE|@-",
      description = "The arguments: JSON, @file.json, or @- for stdin.")
  String data;

  @Mixin ConnectionOptions connection;

  @Override
  public void run() {
    String[] names = CallInput.serviceAndMethod(method);
    String json = CallInput.text(arguments, data, root.stdin());
    try (Remote remote = Remote.connect(address, connection, 1)) {
      ServiceDescription service = remote.describe(names[0]);
      MethodDescription described = Remote.method(service, names[1]);
      JsonMapping mapping = remote.jsonMapping(service);
      RawCall call = CallInput.encode(service, described, mapping, json, connection.timeout);
      byte[] reply;
      try {
        reply = remote.client().call(call)
            .get(connection.timeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        throw remote.failure(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new UserError(ExitCodes.SOFTWARE, "interrupted");
      } catch (TimeoutException e) {
        throw new IllegalStateException("the client's timeout did not end the call", e);
      }
      if (described.resultType().equals("void")) {
        return;
      }
      JsonNode result;
      try {
        result = mapping.decode(reply, described.resultType());
      } catch (IOException e) {
        throw new UserError(ExitCodes.of(StatusCode.INTERNAL),
            "INTERNAL: cannot read the result of " + service.name() + "/" + described.name()
                + " as " + described.resultType() + ": " + e.getMessage());
      }
      spec.commandLine().getOut().println(Json.write(result));
    }
  }
}
