package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.client.RpcxClient;
import io.rpcx.core.RpcxException;
import io.rpcx.examples.server.ExampleServer;
import io.rpcx.registry.zookeeper.ZooKeeperRegistry;
import io.rpcx.server.RpcxServer;
import java.io.File;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * Every RPCX jar names its Java module in its manifest ({@code Automatic-Module-Name}), so that
 * modular applications can require it by a name that will not change when it gets a {@code
 * module-info}. Checked on the jars of this build (a run that stops before {@code package} has
 * directories instead, and skips this).
 */
class ModuleNamesTest {

  @Test
  void everyJarNamesItsModule() throws Exception {
    Map<Class<?>, String> modules = new LinkedHashMap<>();
    modules.put(RPCXClient.class, "io.rpcx.annotation");
    modules.put(RpcxException.class, "io.rpcx.core");
    modules.put(RpcxClient.class, "io.rpcx.client");
    modules.put(RpcxServer.class, "io.rpcx.server");
    modules.put(ZooKeeperRegistry.class, "io.rpcx.registry.zookeeper");
    modules.put(ExampleServer.class, "io.rpcx.examples");
    for (Map.Entry<Class<?>, String> module : modules.entrySet()) {
      File location =
          new File(module.getKey().getProtectionDomain().getCodeSource().getLocation().toURI());
      assumeTrue(location.isFile(), "built into a directory, not a jar: " + location);
      try (JarFile jar = new JarFile(location)) {
        assertEquals(
            module.getValue(),
            jar.getManifest().getMainAttributes().getValue("Automatic-Module-Name"),
            location.getName());
      }
    }
  }
}
