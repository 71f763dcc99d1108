package io.rpcx.benchmarks.model;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;

/**
 * The person record of the RPC performance paper (seed 002): strings, numbers, a boolean, two
 * floats and an optional 1 MiB photo. Used by the codec benchmark. A mutable bean; not thread-safe.
 */
public class Info implements Serializable {
  private static final long serialVersionUID = 1L;

  private int id;
  private String firstName;
  private String lastName;
  private int age;
  private String email;
  private String phone;
  private boolean newsletter;
  private float latitude;
  private float longitude;
  private byte[] photo;

  /** An empty record, for deserializers. */
  public Info() {}

  /** A record with every field set. */
  public Info(int id, String firstName, String lastName, int age, String email, String phone,
      boolean newsletter, float latitude, float longitude, byte[] photo) {
    this.id = id;
    this.firstName = firstName;
    this.lastName = lastName;
    this.age = age;
    this.email = email;
    this.phone = phone;
    this.newsletter = newsletter;
    this.latitude = latitude;
    this.longitude = longitude;
    this.photo = photo;
  }

  public int getId() {
    return id;
  }

  public String getFirstName() {
    return firstName;
  }

  public String getLastName() {
    return lastName;
  }

  public int getAge() {
    return age;
  }

  public String getEmail() {
    return email;
  }

  public String getPhone() {
    return phone;
  }

  public boolean isNewsletter() {
    return newsletter;
  }

  public float getLatitude() {
    return latitude;
  }

  public float getLongitude() {
    return longitude;
  }

  public byte[] getPhoto() {
    return photo;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof Info)) {
      return false;
    }
    Info that = (Info) other;
    return id == that.id && age == that.age && newsletter == that.newsletter
        && Float.compare(latitude, that.latitude) == 0
        && Float.compare(longitude, that.longitude) == 0
        && Objects.equals(firstName, that.firstName) && Objects.equals(lastName, that.lastName)
        && Objects.equals(email, that.email) && Objects.equals(phone, that.phone)
        && Arrays.equals(photo, that.photo);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, email);
  }
}
