package io.rpcx.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rpcx.spring.boot.autoconfigure.greeter.Greeter;
import io.rpcx.spring.boot.autoconfigure.greeter.GreeterImpl;
import io.rpcx.spring.boot.autoconfigure.greeter.ServerApp;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.aopalliance.intercept.MethodInterceptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A service bean behind a Spring AOP proxy (as {@code @Transactional} or {@code @Cacheable} make
 * one) is published as the proxy, so that its advice runs for remote calls, and described by the
 * class behind it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProxiedServiceTest {
  static final AtomicInteger advised = new AtomicInteger();

  @Test
  void theAdviceRunsForRemoteCalls() {
    try (ConfigurableApplicationContext server =
            Apps.run(new Class<?>[] {ServerApp.class, Advice.class}, "rpcx.server.port=0");
        ConfigurableApplicationContext client = Apps.client(Apps.port(server))) {
      assertTrue(AopUtils.isCglibProxy(server.getBean(GreeterImpl.class)), "a class proxy");
      int before = advised.get();
      assertEquals("Hello, Ada", client.getBean(Greeter.class).greet("Ada"));
      assertEquals(before + 1, advised.get(), "the advice ran once");
    }
  }

  /** Wraps the greeter in a CGLIB proxy with advice that counts calls. */
  @Configuration(proxyBeanMethods = false)
  static class Advice {
    @Bean
    static BeanPostProcessor countingProxies() {
      return new BeanPostProcessor() {
        @Override
        public Object postProcessAfterInitialization(Object bean, String name) {
          if (!(bean instanceof GreeterImpl)) {
            return bean;
          }
          ProxyFactory proxy = new ProxyFactory(bean);
          proxy.setProxyTargetClass(true);
          proxy.addAdvice(
              (MethodInterceptor)
                  invocation -> {
                    advised.incrementAndGet();
                    return invocation.proceed();
                  });
          return proxy.getProxy();
        }
      };
    }
  }
}
