package io.rpcx.cli;

import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code rpcx list HOST:PORT}: the services a server publishes, one per line. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = "Lists the services the server publishes, sorted.")
final class ListCommand implements Runnable {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "HOST:PORT", description = "The server.")
  String address;

  @Option(names = "--json", description = "Prints a JSON array.")
  boolean json;

  @Mixin ConnectionOptions connection;

  @Override
  public void run() {
    try (Remote remote = Remote.connect(address, connection, 1)) {
      List<String> services = remote.services();
      if (json) {
        spec.commandLine().getOut().println(Json.write(services));
      } else {
        services.forEach(spec.commandLine().getOut()::println);
      }
    }
  }
}
