package io.rpcx.core.internal.model;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the classes of a package (and its subpackages) that carry an annotation, in class
 * directories and in jars, runnable fat jars included. Classes are loaded without being initialized.
 * Used at start-up only.
 */
public final class ClassScanner {
  private static final Logger logger = LoggerFactory.getLogger(ClassScanner.class);

  private ClassScanner() {}

  /** Classes under {@code packageName} annotated with {@code annotation}, sorted by name. */
  public static List<Class<?>> scan(
      String packageName, Class<? extends Annotation> annotation, ClassLoader loader) {
    String path = packageName.replace('.', '/');
    TreeSet<String> classNames = new TreeSet<>();
    Set<String> scannedJars = new HashSet<>();
    try {
      Enumeration<URL> roots = loader.getResources(path);
      while (roots.hasMoreElements()) {
        URL root = roots.nextElement();
        if ("file".equals(root.getProtocol())) {
          File directory = new File(URLDecoder.decode(root.getPath(), StandardCharsets.UTF_8));
          collectFromDirectory(directory, packageName, classNames);
        } else {
          collectFromJar(root, path, classNames, scannedJars);
        }
      }
      // Jars built without directory entries do not answer getResources(package): find them
      // through their manifests instead.
      Enumeration<URL> manifests = loader.getResources("META-INF/MANIFEST.MF");
      while (manifests.hasMoreElements()) {
        URL manifest = manifests.nextElement();
        if ("jar".equals(manifest.getProtocol())) {
          collectFromJar(manifest, path, classNames, scannedJars);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot scan package " + packageName, e);
    }
    List<Class<?>> found = new ArrayList<>();
    for (String className : classNames) {
      Class<?> type;
      try {
        type = Class.forName(className, false, loader);
      } catch (ClassNotFoundException | LinkageError e) {
        logger.warn("Skipping {} while scanning {}: it cannot be loaded ({})", className, packageName, e.toString());
        continue;
      }
      if (type.isAnnotationPresent(annotation)) {
        found.add(type);
      }
    }
    return found;
  }

  private static void collectFromDirectory(File directory, String packageName, TreeSet<String> out) {
    File[] files = directory.listFiles();
    if (files == null) {
      return;
    }
    for (File file : files) {
      String name = file.getName();
      if (file.isDirectory()) {
        collectFromDirectory(file, packageName + "." + name, out);
      } else if (isClassFile(name)) {
        out.add(packageName + "." + name.substring(0, name.length() - ".class".length()));
      }
    }
  }

  private static void collectFromJar(
      URL root, String path, TreeSet<String> out, Set<String> scannedJars) throws IOException {
    URLConnection connection = root.openConnection();
    if (!(connection instanceof JarURLConnection)) {
      logger.warn("Cannot scan {}: only directories and jars are supported", root);
      return;
    }
    JarURLConnection jarConnection = (JarURLConnection) connection;
    if (!scannedJars.add(jarConnection.getJarFileURL().toString())) {
      return;
    }
    jarConnection.setUseCaches(false);
    try (JarFile jar = jarConnection.getJarFile()) {
      String prefix = path + "/";
      Enumeration<JarEntry> entries = jar.entries();
      while (entries.hasMoreElements()) {
        String name = entries.nextElement().getName();
        if (name.startsWith(prefix) && isClassFile(name.substring(name.lastIndexOf('/') + 1))) {
          out.add(name.substring(0, name.length() - ".class".length()).replace('/', '.'));
        }
      }
    }
  }

  private static boolean isClassFile(String fileName) {
    return fileName.endsWith(".class")
        && !fileName.equals("module-info.class")
        && !fileName.equals("package-info.class");
  }
}
