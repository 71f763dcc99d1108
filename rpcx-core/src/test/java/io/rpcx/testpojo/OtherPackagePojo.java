package io.rpcx.testpojo;

import java.util.List;

/**
 * A POJO outside RPCX's packages, as a user's would be: its generated fields live in this package
 * and reach RPCX's field kinds only through their public and protected members.
 */
public final class OtherPackagePojo {
  private int count;
  private long id;
  private double amount;
  private boolean paid;
  private String name;
  private List<String> tags;
  private byte[] photo;

  public static OtherPackagePojo sample() {
    OtherPackagePojo pojo = new OtherPackagePojo();
    pojo.count = 3;
    pojo.id = 1L << 40;
    pojo.amount = 12.5;
    pojo.paid = true;
    pojo.name = "other";
    pojo.tags = List.of("a", "b");
    pojo.photo = new byte[] {1, 2, 3};
    return pojo;
  }

  /** Every field, for comparing. */
  public List<Object> values() {
    return List.of(count, id, amount, paid, name, tags, List.of(photo[0], photo[1], photo[2]));
  }
}
