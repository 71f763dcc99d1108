package io.rpcx.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.spring.boot.EnableRpcxClients;
import io.rpcx.spring.boot.autoconfigure.greeter.Greeter;
import io.rpcx.spring.boot.autoconfigure.greeter.GreeterImpl;
import io.rpcx.spring.boot.autoconfigure.greeter.Greeting;
import io.rpcx.spring.boot.autoconfigure.greeter.Person;
import io.rpcx.spring.boot.autoconfigure.greeter.Salutation;
import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.javapoet.ClassName;

/**
 * Ahead-of-time processing: its runtime hints name each client's proxy, the services, and every
 * value type RPCX reflects on. (The build runs {@code spring-boot:process-aot} on the example
 * application too.)
 */
class AotHintsTest {

  /** The client interfaces, as an application declares them. */
  @EnableRpcxClients(types = Greeter.class)
  static class Clients {}

  @Test
  void hintsForTheProxyTheServiceAndTheValues() {
    AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
    context.register(Clients.class, GreeterImpl.class, Salutation.class);
    // what spring-boot:process-aot does: bean definitions registered, no bean made
    context.refreshForAotProcessing(new RuntimeHints());

    BeanFactoryInitializationAotContribution contribution =
        new RpcxAotProcessor().processAheadOfTime(context.getBeanFactory());
    assertNotNull(contribution, "the client interface and the service bean were found");
    DefaultGenerationContext generation =
        new DefaultGenerationContext(
            new ClassNameGenerator(ClassName.get("com.example", "App")),
            new InMemoryGeneratedFiles());
    contribution.applyTo(generation, null);
    RuntimeHints hints = generation.getRuntimeHints();

    assertTrue(RuntimeHintsPredicates.proxies().forInterfaces(Greeter.class).test(hints));
    assertTrue(RuntimeHintsPredicates.reflection().onType(Greeter.class).test(hints));
    assertTrue(RuntimeHintsPredicates.reflection().onType(GreeterImpl.class).test(hints));
    assertTrue(RuntimeHintsPredicates.reflection().onType(Person.class).test(hints), "a record");
    assertTrue(RuntimeHintsPredicates.reflection().onType(Greeting.class).test(hints), "a POJO");
    assertFalse(
        RuntimeHintsPredicates.reflection().onType(Salutation.class).test(hints),
        "not what RPCX reaches");
  }

  @Test
  void nothingForAnApplicationWithoutRpcx() {
    GenericApplicationContext context = new GenericApplicationContext();
    context.registerBean(Salutation.class);
    assertNull(new RpcxAotProcessor().processAheadOfTime(context.getBeanFactory()));
  }

  @Test
  void theProcessorIsRegisteredForSpringsAotProcessing() {
    assertTrue(
        AotServices.factories()
            .load(BeanFactoryInitializationAotProcessor.class)
            .asList()
            .stream()
            .anyMatch(RpcxAotProcessor.class::isInstance));
  }
}
