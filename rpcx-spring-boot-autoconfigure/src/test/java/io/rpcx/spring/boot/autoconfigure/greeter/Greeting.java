package io.rpcx.spring.boot.autoconfigure.greeter;

/** A POJO result. */
public class Greeting {
  private String text;
  private int length;

  public Greeting() {}

  public Greeting(String text) {
    this.text = text;
    this.length = text.length();
  }

  public String getText() {
    return text;
  }

  public int getLength() {
    return length;
  }
}
