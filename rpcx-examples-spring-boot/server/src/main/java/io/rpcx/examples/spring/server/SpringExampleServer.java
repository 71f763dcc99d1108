package io.rpcx.examples.spring.server;

import io.rpcx.examples.server.ChatServiceImpl;
import io.rpcx.examples.server.EchoServiceImpl;
import io.rpcx.examples.server.FileServiceImpl;
import io.rpcx.examples.server.InfoServiceImpl;
import io.rpcx.examples.server.OrderServiceImpl;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Import;
import org.springframework.context.event.EventListener;

/**
 * The example services in a Spring Boot application: the seeds' echo, orders and person services
 * and the stream examples (an upload, a chat) as beans, and a message service that is a Spring bean with a repository injected. The starter
 * publishes every {@code @RPCXServer} bean on {@code rpcx.server.port} (9000; 0 for a free one).
 *
 * <pre>
 * java -jar rpcx-spring-example-server.jar [--rpcx.server.port=N]
 * </pre>
 */
@SpringBootApplication
@Import({
  EchoServiceImpl.class,
  OrderServiceImpl.class,
  InfoServiceImpl.class,
  FileServiceImpl.class,
  ChatServiceImpl.class
})
public class SpringExampleServer {

  public static void main(String[] args) {
    SpringApplication.run(SpringExampleServer.class, args);
  }

  /** Tells scripts the port, once the server started with the context. */
  @EventListener(ApplicationReadyEvent.class)
  void ready(ApplicationReadyEvent event) {
    System.out.println(
        "RPCX Spring example server ready on port "
            + event.getApplicationContext().getEnvironment().getProperty("local.rpcx.server.port"));
  }
}
