package io.rpcx.spring.boot.autoconfigure.greeter;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/** An application that publishes {@link GreeterImpl}. */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import({GreeterImpl.class, Salutation.class})
public class ServerApp {}
