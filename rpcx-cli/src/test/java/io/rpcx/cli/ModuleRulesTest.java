package io.rpcx.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The command line is built on RPCX's public API alone, like the other integrations (rpcx-testsuite's
 * ArchitectureTest checks theirs): what a tool needs to call any service is public.
 */
class ModuleRulesTest {

  @Test
  void theCommandLineUsesNoInternalPackageOfRpcx() {
    JavaClasses cli =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.rpcx.cli");
    noClasses()
        .that()
        .resideInAPackage("io.rpcx.cli..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.rpcx..internal..")
        .because("the command line uses what users can use: the public API")
        .check(cli);
  }
}
