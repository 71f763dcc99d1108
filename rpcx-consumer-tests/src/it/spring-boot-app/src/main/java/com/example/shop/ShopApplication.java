package com.example.shop;

import io.rpcx.spring.boot.EnableRpcxClients;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/** The client side: {@link Stock} injected where it is used. */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableRpcxClients(types = Stock.class)
public class ShopApplication {
  @Bean
  Checkout checkout(Stock stock) {
    return new Checkout(stock);
  }

  /** Application code that uses the remote service. */
  public static final class Checkout {
    private final Stock stock;

    Checkout(Stock stock) {
      this.stock = stock;
    }

    public boolean inStock(String item) {
      return stock.available(item) > 0;
    }
  }
}
