package io.rpcx.testpojo;

/** The superclass of {@link OtherPackagePojo}: a private field RPCX reaches through its own nest. */
public class OtherPackageBase {
  private String inherited;

  String inherited() {
    return inherited;
  }

  void inherited(String value) {
    inherited = value;
  }
}
