package io.rpcx.testpojo;

import java.util.Arrays;
import java.util.List;

/**
 * A POJO outside RPCX's packages, as a user's would be: its generated code lives in this package
 * and reaches RPCX's field kinds only through their public and protected members. It has a field
 * of every way the generated code reaches one: direct, final, a rare primitive and inherited.
 */
public final class OtherPackagePojo extends OtherPackageBase {
  private int count;
  private long id;
  private double amount;
  private boolean paid;
  private String name;
  private List<String> tags;
  private byte[] photo;
  private final int fixed;
  private short small;

  private OtherPackagePojo() {
    this(5);
  }

  private OtherPackagePojo(int fixed) {
    this.fixed = fixed;
    this.small = 5;
    this.name = "default";
    inherited("default");
  }

  public static OtherPackagePojo sample() {
    OtherPackagePojo pojo = new OtherPackagePojo(9);
    pojo.count = 3;
    pojo.id = 1L << 40;
    pojo.amount = 12.5;
    pojo.paid = true;
    pojo.name = "other";
    pojo.tags = List.of("a", "b");
    pojo.photo = new byte[] {1, 2, 3};
    pojo.small = -2;
    pojo.inherited("base");
    return pojo;
  }

  /** Every field null or zero, against a receiving constructor's defaults. */
  public static OtherPackagePojo empty() {
    OtherPackagePojo pojo = new OtherPackagePojo(0);
    pojo.small = 0;
    pojo.name = null;
    pojo.inherited(null);
    return pojo;
  }

  /** Every field, for comparing. */
  public List<Object> values() {
    return Arrays.asList(
        count, id, amount, paid, name, tags, photo == null ? null : Arrays.toString(photo), fixed,
        small, inherited());
  }
}
