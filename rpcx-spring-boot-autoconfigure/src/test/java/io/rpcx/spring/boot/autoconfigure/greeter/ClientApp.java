package io.rpcx.spring.boot.autoconfigure.greeter;

import io.rpcx.spring.boot.EnableRpcxClients;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/** An application that calls the greeter through an injected {@link Greeter}. */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
@EnableRpcxClients(types = Greeter.class)
@Import(GreetingCaller.class)
public class ClientApp {}
