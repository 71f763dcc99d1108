package io.rpcx.core.internal.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rpcx.annotation.RPCXClient;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Annotated types are found in class directories and in jars, subpackages included. */
class ClassScannerTest {
  private static final String PACKAGE = "io.rpcx.core.internal.model.scanned";

  @Test
  void findsAnnotatedTypesInAClassDirectory() {
    List<String> found =
        names(ClassScanner.scan(PACKAGE, RPCXClient.class, getClass().getClassLoader()));
    assertEquals(
        List.of(PACKAGE + ".ScannedClient", PACKAGE + ".sub.NestedScannedClient"), found);
  }

  @Test
  void findsAnnotatedTypesInAJarWithDirectoryEntries(@TempDir Path temp) throws Exception {
    findsAnnotatedTypesInAJar(temp, true);
  }

  @Test
  void findsAnnotatedTypesInAJarWithoutDirectoryEntries(@TempDir Path temp) throws Exception {
    findsAnnotatedTypesInAJar(temp, false);
  }

  private void findsAnnotatedTypesInAJar(Path temp, boolean directoryEntries) throws Exception {
    Path jar = temp.resolve("scanned.jar");
    Path classes = Path.of(ScannedMarker.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    writeJar(classes, PACKAGE.replace('.', '/'), jar, directoryEntries);
    // A loader that sees the jar first, so the scan reads the jar's entries, not the directory.
    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {jar.toUri().toURL()}, null) {
          @Override
          protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith(PACKAGE)) {
              synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                return loaded != null ? loaded : findClass(name);
              }
            }
            return ClassScannerTest.class.getClassLoader().loadClass(name);
          }
        }) {
      List<Class<?>> found = ClassScanner.scan(PACKAGE, RPCXClient.class, loader);
      assertEquals(
          List.of(PACKAGE + ".ScannedClient", PACKAGE + ".sub.NestedScannedClient"), names(found));
      assertEquals(loader, found.get(0).getClassLoader(), "loaded from the jar");
    }
  }

  /** Marks this test's class directory. */
  static final class ScannedMarker {}

  private static List<String> names(List<Class<?>> types) {
    return types.stream().map(Class::getName).collect(Collectors.toList());
  }

  private static void writeJar(
      Path classes, String packagePath, Path jar, boolean directoryEntries) throws IOException {
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest);
        Stream<Path> files = Files.walk(classes.resolve(packagePath))) {
      if (directoryEntries) {
        String prefix = "";
        for (String part : packagePath.split("/")) {
          prefix += part + "/";
          out.putNextEntry(new JarEntry(prefix));
          out.closeEntry();
        }
      }
      for (Path file : (Iterable<Path>) files::iterator) {
        String name = classes.relativize(file).toString().replace('\\', '/');
        if (Files.isRegularFile(file)) {
          out.putNextEntry(new JarEntry(name));
          out.write(Files.readAllBytes(file));
          out.closeEntry();
        } else if (directoryEntries && !name.equals(packagePath)) {
          out.putNextEntry(new JarEntry(name + "/"));
          out.closeEntry();
        }
      }
    }
  }
}
