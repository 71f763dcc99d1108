package io.rpcx.testsuite;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import io.rpcx.testsuite.architecture.Leaks;
import io.rpcx.testsuite.architecture.a.CycleA;
import io.rpcx.testsuite.architecture.b.CycleB;
import io.rpcx.testsuite.architecture.integration.UsesInternals;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The package rules of the library jars (annotations, core, client, server, ZooKeeper registry,
 * Kubernetes discovery, Spring Boot and Spring Cloud, Micrometer and OpenTelemetry
 * instrumentation), checked on their compiled classes: what a user
 * may depend on, and which way the packages depend on each other (docs/ARCHITECTURE.md draws
 * them). Each rule is also shown to catch a class that breaks it, so that none passes for want of
 * anything to check.
 */
class ArchitectureTest {

  /** The library's own classes: no tests, no examples, no benchmarks. */
  private static final JavaClasses LIBRARY =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .withImportOption(location -> !location.contains("-tests.jar"))
          .importPackages(
              "io.rpcx.annotation",
              "io.rpcx.core",
              "io.rpcx.client",
              "io.rpcx.server",
              "io.rpcx.http",
              "io.rpcx.testing",
              "io.rpcx.registry",
              "io.rpcx.kubernetes",
              "io.rpcx.micrometer",
              "io.rpcx.opentelemetry",
              "io.rpcx.spring");

  /**
   * The types a user may name: public, outside every {@code internal} package, and nested (if at
   * all) in such a type. Adding, removing or renaming one is a decision about the API: change this
   * list on purpose, together with the change.
   */
  private static final String PUBLIC_API =
      """
      io.rpcx.annotation.Blocking
      io.rpcx.annotation.Idempotent
      io.rpcx.annotation.InterruptOnCancel
      io.rpcx.annotation.Method
      io.rpcx.annotation.NonBlocking
      io.rpcx.annotation.OwnDeadline
      io.rpcx.annotation.RPCXClient
      io.rpcx.annotation.RPCXServer
      io.rpcx.annotation.RoutingKey
      io.rpcx.client.CallResult
      io.rpcx.client.ClientCall
      io.rpcx.client.ClientInterceptor
      io.rpcx.client.ClientStats
      io.rpcx.client.DnsDiscovery
      io.rpcx.client.DnsDiscovery$Builder
      io.rpcx.client.EndpointStatus
      io.rpcx.client.EndpointStatus$State
      io.rpcx.client.LoadBalancing
      io.rpcx.client.RawCall
      io.rpcx.client.RawCall$Builder
      io.rpcx.client.RpcxClient
      io.rpcx.client.RpcxClient$Builder
      io.rpcx.core.BadRequestException
      io.rpcx.core.BlockingOperationException
      io.rpcx.core.CallTimeoutException
      io.rpcx.core.CancelledException
      io.rpcx.core.InternalErrorException
      io.rpcx.core.InvalidSettingException
      io.rpcx.core.MethodDescriptor
      io.rpcx.core.MethodDescriptor$Shape
      io.rpcx.core.NotFoundException
      io.rpcx.core.RemoteFailureException
      io.rpcx.core.ResourceExhaustedException
      io.rpcx.core.RpcxContext
      io.rpcx.core.RpcxContext$Key
      io.rpcx.core.RpcxContext$Registration
      io.rpcx.core.RpcxContext$Scope
      io.rpcx.core.RpcxException
      io.rpcx.core.StatusCode
      io.rpcx.core.TlsConfig
      io.rpcx.core.TlsConfig$Provider
      io.rpcx.core.TlsConfig$Builder
      io.rpcx.core.UnsupportedRuntimeException
      io.rpcx.core.UnauthenticatedException
      io.rpcx.core.UnavailableException
      io.rpcx.core.discovery.ServiceDiscovery
      io.rpcx.core.discovery.ServiceDiscovery$Listener
      io.rpcx.core.discovery.ServiceDiscovery$Subscription
      io.rpcx.core.discovery.ServiceEndpoint
      io.rpcx.core.discovery.ServiceRegistrar
      io.rpcx.core.discovery.ServiceRegistrar$Registration
      io.rpcx.core.discovery.StaticDiscovery
      io.rpcx.core.discovery.StaticDiscovery$Builder
      io.rpcx.core.reflection.FieldDescription
      io.rpcx.core.reflection.MethodDescription
      io.rpcx.core.reflection.ParameterDescription
      io.rpcx.core.reflection.ProtoSchemas
      io.rpcx.core.reflection.ReflectionService
      io.rpcx.core.reflection.ServiceDescription
      io.rpcx.core.reflection.TypeDescription
      io.rpcx.core.reflection.TypeDescription$Kind
      io.rpcx.http.InvalidJsonException
      io.rpcx.http.JsonMapping
      io.rpcx.http.RpcxHttp
      io.rpcx.http.RpcxHttp$Builder
      io.rpcx.kubernetes.KubernetesDiscovery
      io.rpcx.kubernetes.KubernetesDiscovery$Builder
      io.rpcx.micrometer.DefaultRpcxClientObservationConvention
      io.rpcx.micrometer.DefaultRpcxServerObservationConvention
      io.rpcx.micrometer.RpcxClientContext
      io.rpcx.micrometer.RpcxClientMeters
      io.rpcx.micrometer.RpcxClientMetrics
      io.rpcx.micrometer.RpcxClientObservationConvention
      io.rpcx.micrometer.RpcxClientObservations
      io.rpcx.micrometer.RpcxKeys
      io.rpcx.micrometer.RpcxMeterObservationHandler
      io.rpcx.micrometer.RpcxServerContext
      io.rpcx.micrometer.RpcxServerMeters
      io.rpcx.micrometer.RpcxServerMetrics
      io.rpcx.micrometer.RpcxServerObservationConvention
      io.rpcx.micrometer.RpcxServerObservations
      io.rpcx.micrometer.RpcxStreamMessagesHandler
      io.rpcx.opentelemetry.RpcxAttributes
      io.rpcx.opentelemetry.RpcxClientTelemetry
      io.rpcx.opentelemetry.RpcxServerTelemetry
      io.rpcx.registry.zookeeper.ZooKeeperRegistry
      io.rpcx.registry.zookeeper.ZooKeeperRegistry$Builder
      io.rpcx.server.CallInfo
      io.rpcx.server.ExceptionLogging
      io.rpcx.server.RefusalListener
      io.rpcx.server.RefusedCall
      io.rpcx.server.RpcxServer
      io.rpcx.server.RpcxServer$Builder
      io.rpcx.server.ServerInterceptor
      io.rpcx.server.ServerInterceptor$Next
      io.rpcx.server.ServerInterceptors
      io.rpcx.server.ServerStats
      io.rpcx.server.http.HttpExchange
      io.rpcx.server.http.HttpHandler
      io.rpcx.server.http.HttpService
      io.rpcx.testing.Faults
      io.rpcx.testing.Faults$Builder
      io.rpcx.testing.RpcxExtension
      io.rpcx.spring.boot.EnableRpcxClients
      io.rpcx.spring.boot.LocalRpcxServerPort
      io.rpcx.spring.boot.RpcxClientBuilderCustomizer
      io.rpcx.spring.boot.RpcxClientInterfaces
      io.rpcx.spring.boot.RpcxServerBuilderCustomizer
      io.rpcx.spring.boot.autoconfigure.RpcxClientAutoConfiguration
      io.rpcx.spring.boot.autoconfigure.RpcxHealthContributorAutoConfiguration
      io.rpcx.spring.boot.autoconfigure.RpcxObservationAutoConfiguration
      io.rpcx.spring.boot.autoconfigure.RpcxProperties
      io.rpcx.spring.boot.autoconfigure.RpcxProperties$Client
      io.rpcx.spring.boot.autoconfigure.RpcxProperties$ClientSsl
      io.rpcx.spring.boot.autoconfigure.RpcxProperties$Observations
      io.rpcx.spring.boot.autoconfigure.RpcxProperties$Server
      io.rpcx.spring.boot.autoconfigure.RpcxProperties$ServerGrpc
      io.rpcx.spring.boot.autoconfigure.RpcxProperties$ServerHttp
      io.rpcx.spring.boot.autoconfigure.RpcxProperties$ServerSsl
      io.rpcx.spring.boot.autoconfigure.RpcxProperties$Service
      io.rpcx.spring.boot.autoconfigure.RpcxProperties$ZooKeeper
      io.rpcx.spring.boot.autoconfigure.RpcxServerAutoConfiguration
      io.rpcx.spring.boot.autoconfigure.RpcxZooKeeperAutoConfiguration
      io.rpcx.spring.cloud.RpcxSpringCloudDiscoveryAutoConfiguration
      io.rpcx.spring.cloud.RpcxSpringCloudProperties
      io.rpcx.spring.cloud.RpcxSpringCloudRegistrationAutoConfiguration
      io.rpcx.spring.cloud.SpringCloudDiscovery
      io.rpcx.spring.cloud.SpringCloudDiscovery$Builder
      """;

  /**
   * The entry types wire the internals together, so they sit above them, in a slice of their own.
   * Everything else in an API package is contract (values, exceptions, interfaces) that the
   * internals may use but that uses no internal type.
   */
  private static final Set<String> ENTRY_TYPES =
      Set.of(
          "io.rpcx.client.RpcxClient",
          "io.rpcx.client.DnsDiscovery",
          "io.rpcx.server.RpcxServer",
          "io.rpcx.core.reflection.ProtoSchemas",
          "io.rpcx.http.RpcxHttp",
          "io.rpcx.http.JsonMapping",
          "io.rpcx.testing.RpcxExtension");

  private static final DescribedPredicate<JavaClass> API_TYPE =
      DescribedPredicate.describe("are public API types", ArchitectureTest::isApi);

  private static final DescribedPredicate<JavaClass> INTERNAL =
      DescribedPredicate.describe("are internal", ArchitectureTest::isInternal);

  private static final ArchRule NO_CYCLES =
      slices()
          .assignedFrom(
              new SliceAssignment() {
                @Override
                public SliceIdentifier getIdentifierOf(JavaClass type) {
                  return isEntryType(type)
                      ? SliceIdentifier.of(type.getPackageName() + " entry types")
                      : SliceIdentifier.of(type.getPackageName());
                }

                @Override
                public String getDescription() {
                  return "packages, with the entry types apart";
                }
              })
          .should()
          .beFreeOfCycles();

  private static final ArchRule NETTY_ONLY_IN_TRANSPORT =
      noClasses()
          .that()
          .resideOutsideOfPackage("..internal.transport..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("io.netty..")
          .because("Netty is how bytes move; codecs, calls and dispatch stay independent of it");

  private static final ArchRule API_SIGNATURES_NAME_NO_INTERNAL_TYPE =
      classes()
          .that(API_TYPE)
          .should(exposeNoInternalType())
          .because("a user cannot rely on what an internal package holds");

  /**
   * The optional integrations (metrics, tracing, Spring Boot and Spring Cloud, registries,
   * Kubernetes) are built on the public API alone, as users' own integrations would be: what they
   * need is public. (The command line, outside this suite's class path, checks the same rule in
   * its own tests.)
   */
  private static final ArchRule INTEGRATIONS_USE_NO_INTERNALS =
      useNoInternals(
          "io.rpcx.micrometer..",
          "io.rpcx.opentelemetry..",
          "io.rpcx.spring..",
          "io.rpcx.registry..",
          "io.rpcx.kubernetes..");

  /**
   * The HTTP side (rpcx-http) plugs into the server through its public seam alone ({@code
   * io.rpcx.server.http}: the server reads HTTP, the handler answers it and calls the published
   * methods through the server's dispatcher), as a user's own HTTP side would: its own internals
   * are its business, the server's and the core's are not.
   */
  private static final ArchRule HTTP_SIDE_USES_THE_SEAM = ownInternalsOnly("io.rpcx.http..");

  /**
   * The test kit reaches into the server through one seam only: {@code ReplyFault}, where its
   * faults drop a reply or reset a connection. Everything else it does through the public API.
   */
  private static final ArchRule TEST_KIT_USES_ONE_SEAM = testKitSeam("io.rpcx.testing..");

  private static final ArchRule ONLY_ENTRY_TYPES_USE_INTERNALS =
      noClasses()
          .that(API_TYPE)
          .and(DescribedPredicate.describe("are not entry types", type -> !isEntryType(type)))
          .should()
          .dependOnClassesThat(INTERNAL);

  @Test
  void theLibraryClassesAreFoundWhereverTheBuildPutThem() {
    for (String name :
        List.of(
            "io.rpcx.annotation.RPCXServer",
            "io.rpcx.core.RpcxException",
            "io.rpcx.core.internal.codec.pojo.PojoCodec",
            "io.rpcx.client.RpcxClient",
            "io.rpcx.client.internal.transport.ClientConnection",
            "io.rpcx.server.RpcxServer",
            "io.rpcx.server.internal.transport.ServerConnectionHandler",
            "io.rpcx.testing.RpcxExtension",
            "io.rpcx.testing.internal.transport.BufferLeaks",
            "io.rpcx.registry.zookeeper.ZooKeeperRegistry",
            "io.rpcx.kubernetes.KubernetesDiscovery",
            "io.rpcx.spring.cloud.SpringCloudDiscovery",
            "io.rpcx.micrometer.RpcxClientObservations",
            "io.rpcx.opentelemetry.RpcxServerTelemetry")) {
      assertTrue(LIBRARY.contain(name), name + " was not imported");
    }
  }

  @Test
  void packagesDependOnEachOtherWithoutCycles() {
    NO_CYCLES.check(LIBRARY);
  }

  @Test
  void onlyTransportPackagesUseNetty() {
    NETTY_ONLY_IN_TRANSPORT.check(LIBRARY);
  }

  @Test
  void theApiNamesNoInternalType() {
    API_SIGNATURES_NAME_NO_INTERNAL_TYPE.check(LIBRARY);
  }

  @Test
  void theEntryTypesAreTheOnlyApiTypesThatUseInternals() {
    ONLY_ENTRY_TYPES_USE_INTERNALS.check(LIBRARY);
  }

  @Test
  void theIntegrationModulesUseNoInternalPackage() {
    INTEGRATIONS_USE_NO_INTERNALS.check(LIBRARY);
  }

  @Test
  void theHttpSideUsesTheServersPublicSeamOnly() {
    HTTP_SIDE_USES_THE_SEAM.check(LIBRARY);
  }

  @Test
  void theTestKitUsesOnlyTheReplyFaultSeam() {
    TEST_KIT_USES_ONE_SEAM.check(LIBRARY);
  }

  @Test
  void theModuleRulesCatchAClassThatBreaksThem() {
    JavaClasses offender = new ClassFileImporter().importClasses(UsesInternals.class);
    String offenders = "io.rpcx.testsuite.architecture.integration..";
    assertTrue(useNoInternals(offenders).evaluate(offender).hasViolation());
    assertTrue(testKitSeam(offenders).evaluate(offender).hasViolation());
    assertTrue(ownInternalsOnly(offenders).evaluate(offender).hasViolation());
    String seamOnly =
        testKitSeam(offenders).evaluate(offender).getFailureReport().getDetails().toString();
    assertFalse(seamOnly.contains("ReplyFault"), "the seam itself is allowed: " + seamOnly);
  }

  /** Classes in {@code packages} depend on no internal class. */
  private static ArchRule useNoInternals(String... packages) {
    return noClasses()
        .that()
        .resideInAnyPackage(packages)
        .should()
        .dependOnClassesThat(INTERNAL)
        .because("an integration uses what users can use: the public API");
  }

  /** Classes in {@code module} depend on no internal class but their own module's. */
  private static ArchRule ownInternalsOnly(String module) {
    String own = module.replace("..", ".");
    return noClasses()
        .that()
        .resideInAPackage(module)
        .should()
        .dependOnClassesThat(
            DescribedPredicate.describe(
                "are internal to RPCX's other modules",
                type -> {
                  JavaClass used = type.isArray() ? type.getBaseComponentType() : type;
                  return isInternal(used) && !used.getName().startsWith(own);
                }))
        .because("an integration uses what users can use: the public API");
  }

  /**
   * Classes in {@code testKit} depend on no internal class but the test kit's own and {@code
   * ReplyFault}.
   */
  private static ArchRule testKitSeam(String testKit) {
    String own = testKit.replace("..", ".");
    return noClasses()
        .that()
        .resideInAPackage(testKit)
        .should()
        .dependOnClassesThat(
            DescribedPredicate.describe(
                "are internal to RPCX's other modules, other than ReplyFault",
                type -> {
                  JavaClass used = type.isArray() ? type.getBaseComponentType() : type;
                  return isInternal(used)
                      && !used.getName().startsWith(own)
                      && !used.getName().startsWith("io.rpcx.server.internal.dispatch.ReplyFault");
                }))
        .because("the test kit drives the server through the public API and one seam");
  }

  @Test
  void thePublicApiIsTheListedTypes() {
    Set<String> actual =
        LIBRARY.stream()
            .filter(API_TYPE)
            .map(JavaClass::getName)
            .collect(Collectors.toCollection(TreeSet::new));
    Set<String> expected = new TreeSet<>(PUBLIC_API.lines().map(String::strip).toList());
    assertEquals(
        expected,
        actual,
        () -> "the public API changed; if on purpose, update PUBLIC_API to:\n"
            + String.join("\n", actual));
  }

  @Test
  void eachRuleCatchesAClassThatBreaksIt() {
    JavaClasses offenders =
        new ClassFileImporter()
            .importClasses(
                Leaks.ReturnType.class, NettyOutsideTransport.class, CycleA.class, CycleB.class);
    assertTrue(NETTY_ONLY_IN_TRANSPORT.evaluate(offenders).hasViolation());
    assertTrue(API_SIGNATURES_NAME_NO_INTERNAL_TYPE.evaluate(offenders).hasViolation());
    assertTrue(ONLY_ENTRY_TYPES_USE_INTERNALS.evaluate(offenders).hasViolation());
    assertTrue(NO_CYCLES.evaluate(offenders).hasViolation());
  }

  @Test
  void theApiRuleLooksAtEveryPartOfASignature() {
    for (Class<?> leak :
        List.of(
            Leaks.ReturnType.class,
            Leaks.ParameterType.class,
            Leaks.TypeArgument.class,
            Leaks.FieldType.class,
            Leaks.ThrowsClause.class,
            Leaks.Supertype.class,
            Leaks.ProtectedMember.class)) {
      assertTrue(
          API_SIGNATURES_NAME_NO_INTERNAL_TYPE
              .evaluate(new ClassFileImporter().importClasses(leak))
              .hasViolation(),
          leak.getSimpleName() + " was not caught");
    }
  }

  /** A class outside the transport packages that holds a Netty buffer. */
  static final class NettyOutsideTransport {
    io.netty.buffer.ByteBuf buffer;
  }

  private static boolean isApi(JavaClass type) {
    return type.getModifiers().contains(JavaModifier.PUBLIC)
        && !isInternal(type)
        && !type.isAnonymousClass()
        && type.getEnclosingClass().map(ArchitectureTest::isApi).orElse(true);
  }

  private static boolean isInternal(JavaClass type) {
    String name = type.getPackageName();
    return name.startsWith("io.rpcx.")
        && (name.contains(".internal.") || name.endsWith(".internal"));
  }

  /** Whether {@code type} is an entry type or nested in one. */
  private static boolean isEntryType(JavaClass type) {
    String name = type.getName();
    int nested = name.indexOf('$');
    return ENTRY_TYPES.contains(nested < 0 ? name : name.substring(0, nested));
  }

  /** Public and protected members of an API type, supertypes and type bounds included. */
  private static ArchCondition<JavaClass> exposeNoInternalType() {
    return new ArchCondition<>("name no internal type in a public or protected signature") {
      @Override
      public void check(JavaClass type, ConditionEvents events) {
        List<String> exposed = new ArrayList<>();
        type.getSuperclass().ifPresent(s -> collect("superclass", List.of(s), exposed));
        collect("interfaces", type.getInterfaces(), exposed);
        collect("type parameters", type.getTypeParameters(), exposed);
        boolean extensible = !type.getModifiers().contains(JavaModifier.FINAL);
        for (JavaMember member : type.getMembers()) {
          Set<JavaModifier> modifiers = member.getModifiers();
          boolean visible =
              modifiers.contains(JavaModifier.PUBLIC)
                  || (extensible && modifiers.contains(JavaModifier.PROTECTED));
          if (!visible || modifiers.contains(JavaModifier.SYNTHETIC)) {
            continue;
          }
          if (member instanceof JavaField field) {
            collect(field.getFullName(), List.of(field.getType()), exposed);
          } else if (member instanceof JavaCodeUnit unit) {
            List<JavaType> types = new ArrayList<>(unit.getParameterTypes());
            types.add(unit.getReturnType());
            types.addAll(unit.getTypeParameters());
            types.addAll(unit.getThrowsClause().getTypes());
            collect(unit.getFullName(), types, exposed);
          }
        }
        for (String violation : exposed) {
          events.add(SimpleConditionEvent.violated(type, violation));
        }
      }
    };
  }

  private static void collect(
      String where, Collection<? extends JavaType> types, List<String> exposed) {
    for (JavaType type : types) {
      for (JavaClass involved : type.getAllInvolvedRawTypes()) {
        if (isInternal(involved)) {
          exposed.add(where + " names the internal type " + involved.getName());
        }
      }
    }
  }
}
