package com.example.shop;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** Starts the server application on a free port, then the client application; exits 0 if the call works. */
public final class ShopCheck {
  public static void main(String[] args) {
    try (ConfigurableApplicationContext stock =
            new SpringApplicationBuilder(StockApplication.class)
                .web(WebApplicationType.NONE)
                .run("--rpcx.server.port=0", "--rpcx.server.bind-address=127.0.0.1");
        ConfigurableApplicationContext shop =
            new SpringApplicationBuilder(ShopApplication.class)
                .web(WebApplicationType.NONE)
                .run("--rpcx.client.target=127.0.0.1:"
                    + stock.getEnvironment().getProperty("local.rpcx.server.port"))) {
      boolean inStock = shop.getBean(ShopApplication.Checkout.class).inStock("apple");
      System.out.println("apple in stock: " + inStock);
      System.exit(inStock ? 0 : 1);
    }
  }
}
