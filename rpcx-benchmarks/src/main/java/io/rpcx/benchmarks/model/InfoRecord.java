package io.rpcx.benchmarks.model;

/**
 * The person of {@link Info} as a Java record, the form many Java 17 services give their data
 * types: the codec benchmark's {@code infoRecord} shape compares RPCX's record path with its
 * class path and with protobuf-java on the same message.
 */
public record InfoRecord(
    int id,
    String firstName,
    String lastName,
    int age,
    String email,
    String phone,
    boolean newsletter,
    float latitude,
    float longitude,
    byte[] photo) {

  /** The record of {@code info}'s fields. */
  public static InfoRecord of(Info info) {
    return new InfoRecord(
        info.getId(), info.getFirstName(), info.getLastName(), info.getAge(), info.getEmail(),
        info.getPhone(), info.isNewsletter(), info.getLatitude(), info.getLongitude(),
        info.getPhoto());
  }
}
