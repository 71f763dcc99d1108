package io.rpcx.core.internal.config;

import io.rpcx.core.internal.model.ClassScanner;
import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where a builder looks for annotated types: packages to scan and the class loader to scan them
 * with (default the context class loader of the thread that builds). Immutable.
 */
public final class TypeScan {
  private final List<String> packages;
  private final ClassLoader classLoader;

  private TypeScan(List<String> packages, ClassLoader classLoader) {
    this.packages = List.copyOf(packages);
    this.classLoader = classLoader;
  }

  /** Nothing to scan. */
  public static TypeScan none() {
    return new TypeScan(List.of(), null);
  }

  /** This scan and {@code more} packages. */
  public TypeScan andPackages(String... more) {
    List<String> all = new ArrayList<>(packages);
    for (String name : more) {
      all.add(Objects.requireNonNull(name, "package"));
    }
    return new TypeScan(all, classLoader);
  }

  /** This scan with {@code classLoader}; {@code null} for the building thread's. */
  public TypeScan withClassLoader(ClassLoader classLoader) {
    return new TypeScan(packages, classLoader);
  }

  public List<String> packages() {
    return packages;
  }

  /** The types annotated {@code annotation} in one package and its subpackages. */
  public List<Class<?>> find(String packageName, Class<? extends Annotation> annotation) {
    ClassLoader loader =
        classLoader != null ? classLoader : Thread.currentThread().getContextClassLoader();
    return ClassScanner.scan(packageName, annotation, loader);
  }
}
