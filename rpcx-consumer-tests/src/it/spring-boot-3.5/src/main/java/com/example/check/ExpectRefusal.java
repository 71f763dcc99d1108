package com.example.check;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;

/**
 * Starts an application with the starter; exits 0 if it fails with exactly the message given as
 * the first argument, 1 otherwise.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class ExpectRefusal {
  public static void main(String[] args) {
    String expected = args[0];
    try {
      new SpringApplicationBuilder(ExpectRefusal.class).web(WebApplicationType.NONE).run().close();
      System.out.println("started, but should have refused");
      System.exit(1);
    } catch (RuntimeException e) {
      for (Throwable cause = e; cause != null; cause = cause.getCause()) {
        if (cause.getClass().getName().equals("io.rpcx.core.UnsupportedRuntimeException")) {
          System.out.println("refused: " + cause.getMessage());
          if (cause.getMessage().equals(expected)) {
            System.exit(0);
          }
          System.out.println("expected: " + expected);
          System.exit(1);
        }
      }
      e.printStackTrace(System.out);
      System.exit(1);
    }
  }
}
