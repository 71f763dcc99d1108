package io.rpcx.core.internal.runtime;

import com.google.protobuf.CodedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.jar.Manifest;

/** Which protobuf-java release is on the class path. */
final class ProtobufRuntime {
  private ProtobufRuntime() {}

  /**
   * The protobuf-java version: from {@code com.google.protobuf.RuntimeVersion} (4.26 and later),
   * else from the manifest of the jar that holds protobuf-java; {@code null} when neither tells
   * (protobuf-java 3.x merged into another jar).
   */
  static String version() {
    String fromRuntime = fromRuntimeVersion();
    return fromRuntime != null ? fromRuntime : fromManifest();
  }

  private static String fromRuntimeVersion() {
    try {
      Class<?> runtime =
          Class.forName(
              "com.google.protobuf.RuntimeVersion", true, CodedInputStream.class.getClassLoader());
      return runtime.getField("MAJOR").get(null)
          + "." + runtime.getField("MINOR").get(null)
          + "." + runtime.getField("PATCH").get(null)
          + runtime.getField("SUFFIX").get(null);
    } catch (ReflectiveOperationException | LinkageError e) {
      return null;
    }
  }

  private static String fromManifest() {
    URL self = CodedInputStream.class.getResource("CodedInputStream.class");
    if (self == null || !self.getProtocol().equals("jar")) {
      return null;
    }
    String jar = self.toString();
    try (InputStream in =
        new URL(jar.substring(0, jar.indexOf("!/") + 2) + "META-INF/MANIFEST.MF").openStream()) {
      Manifest manifest = new Manifest(in);
      if (!"com.google.protobuf".equals(manifest.getMainAttributes().getValue("Bundle-SymbolicName"))) {
        return null;
      }
      return manifest.getMainAttributes().getValue("Bundle-Version");
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
