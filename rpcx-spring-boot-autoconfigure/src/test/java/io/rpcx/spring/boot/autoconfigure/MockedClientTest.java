package io.rpcx.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.Mockito.when;

import io.rpcx.spring.boot.autoconfigure.greeter.ClientApp;
import io.rpcx.spring.boot.autoconfigure.greeter.Greeter;
import io.rpcx.spring.boot.autoconfigure.greeter.GreetingCaller;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;

/** A test replaces a client bean with a mock, as it would any bean: no server needed. */
@SpringBootTest(classes = ClientApp.class, properties = "rpcx.client.target=127.0.0.1:9")
class MockedClientTest {
  @MockitoBean Greeter greeter;

  @Autowired GreetingCaller caller;

  @Test
  void theCallerGetsTheMock() {
    when(greeter.greet("Ada")).thenReturn("Hi, Ada");
    assertEquals("Hi, Ada!", caller.welcome("Ada"));
  }
}
