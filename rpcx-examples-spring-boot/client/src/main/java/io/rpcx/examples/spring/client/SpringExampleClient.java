package io.rpcx.examples.spring.client;

import io.rpcx.examples.api.EchoService;
import io.rpcx.spring.boot.EnableRpcxClients;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Calls every example method through the beans {@code @EnableRpcxClients} registers, then exits:
 * 0 when every call worked, 1 otherwise.
 *
 * <pre>
 * java -jar rpcx-spring-example-client.jar [--rpcx.client.target=HOST:PORT]
 * </pre>
 */
@SpringBootApplication
@EnableRpcxClients(basePackageClasses = EchoService.class)
public class SpringExampleClient {

  public static void main(String[] args) {
    SpringApplication application = new SpringApplication(SpringExampleClient.class);
    application.setWebApplicationType(WebApplicationType.NONE);
    System.exit(SpringApplication.exit(application.run(args)));
  }
}
