package io.rpcx.testsuite;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Echoes every value shape RPCX carries in bulk (a class, a record, a record in a record, a list
 * and a map of records, {@code byte[]}, {@code String}), and makes each of a requested size on
 * the server, so that tests can push each shape past every internal size threshold in both
 * directions.
 */
@RPCXClient(name = "shapes")
public interface ShapesService {

  /** A plain class holding its bulk in a byte array and a string. */
  final class Bean {
    private String name;
    private byte[] data;
    private int number;

    private Bean() {}

    Bean(String name, byte[] data, int number) {
      this.name = name;
      this.data = data;
      this.number = number;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Bean
          && Objects.equals(name, ((Bean) other).name)
          && Arrays.equals(data, ((Bean) other).data)
          && number == ((Bean) other).number;
    }

    @Override
    public int hashCode() {
      return Objects.hash(name, Arrays.hashCode(data), number);
    }

    @Override
    public String toString() {
      return "Bean[" + name + ", " + (data == null ? "null" : data.length + " bytes") + "]";
    }
  }

  /** A record holding its bulk in a byte array. */
  record Blob(String name, byte[] data, long number) {
    @Override
    public boolean equals(Object other) {
      return other instanceof Blob
          && Objects.equals(name, ((Blob) other).name)
          && Arrays.equals(data, ((Blob) other).data)
          && number == ((Blob) other).number;
    }

    @Override
    public int hashCode() {
      return Objects.hash(name, Arrays.hashCode(data), number);
    }

    @Override
    public String toString() {
      return "Blob[" + name + ", " + (data == null ? "null" : data.length + " bytes") + "]";
    }
  }

  /** A record holding a record, whose text is the bulk. */
  record Envelope(String label, Note note) {}

  /** The inner record of an {@link Envelope}. */
  record Note(String text, int pages) {}

  /** The shapes, each as one method pair: an echo and a maker of a value of about n bytes. */
  enum Shape {
    CLASS,
    RECORD,
    NESTED_RECORD,
    LIST_OF_RECORDS,
    MAP_OF_RECORDS,
    BYTES,
    STRING
  }

  Bean bean(Bean value);

  Blob blob(Blob value);

  Envelope envelope(Envelope value);

  List<Blob> blobList(List<Blob> value);

  Map<String, Blob> blobMap(Map<String, Blob> value);

  byte[] bytes(byte[] value);

  String string(String value);

  /** A value of {@code shape} of about {@code size} bytes, made on the server. */
  Bean makeBean(int size);

  Blob makeBlob(int size);

  Envelope makeEnvelope(int size);

  List<Blob> makeBlobList(int size);

  Map<String, Blob> makeBlobMap(int size);

  byte[] makeBytes(int size);

  String makeString(int size);

  /** Values of about {@code size} bytes on the wire, the same on every call. */
  final class Values {
    /** Bulk of each element of a list or map. */
    static final int ELEMENT = 1000;

    private Values() {}

    static byte[] bytes(int size) {
      byte[] data = new byte[Math.max(0, size)];
      for (int i = 0; i < data.length; i++) {
        data[i] = (byte) (i * 31 + 7);
      }
      return data;
    }

    static String string(int size) {
      char[] text = new char[Math.max(0, size)];
      for (int i = 0; i < text.length; i++) {
        text[i] = (char) ('a' + i % 26);
      }
      return new String(text);
    }

    static Bean bean(int size) {
      return new Bean("bean", bytes(size), size);
    }

    static Blob blob(int size) {
      return new Blob("blob", bytes(size), size);
    }

    static Envelope envelope(int size) {
      return new Envelope("envelope", new Note(string(size), size));
    }

    static List<Blob> blobList(int size) {
      List<Blob> list = new ArrayList<>();
      for (int left = size, i = 0; left > 0; left -= ELEMENT, i++) {
        list.add(new Blob("b" + i, bytes(Math.min(ELEMENT, left)), i));
      }
      return list;
    }

    static Map<String, Blob> blobMap(int size) {
      Map<String, Blob> map = new LinkedHashMap<>();
      for (Blob blob : blobList(size)) {
        map.put(blob.name(), blob);
      }
      return map;
    }

    /** The value of {@code shape} of about {@code size} bytes. */
    static Object of(Shape shape, int size) {
      switch (shape) {
        case CLASS:
          return bean(size);
        case RECORD:
          return blob(size);
        case NESTED_RECORD:
          return envelope(size);
        case LIST_OF_RECORDS:
          return blobList(size);
        case MAP_OF_RECORDS:
          return blobMap(size);
        case BYTES:
          return bytes(size);
        default:
          return string(size);
      }
    }
  }

  /** Echoes and makes values. */
  @RPCXServer(name = "shapes")
  final class Impl implements ShapesService {
    @Override
    public Bean bean(Bean value) {
      return value;
    }

    @Override
    public Blob blob(Blob value) {
      return value;
    }

    @Override
    public Envelope envelope(Envelope value) {
      return value;
    }

    @Override
    public List<Blob> blobList(List<Blob> value) {
      return value;
    }

    @Override
    public Map<String, Blob> blobMap(Map<String, Blob> value) {
      return value;
    }

    @Override
    public byte[] bytes(byte[] value) {
      return value;
    }

    @Override
    public String string(String value) {
      return value;
    }

    @Override
    public Bean makeBean(int size) {
      return Values.bean(size);
    }

    @Override
    public Blob makeBlob(int size) {
      return Values.blob(size);
    }

    @Override
    public Envelope makeEnvelope(int size) {
      return Values.envelope(size);
    }

    @Override
    public List<Blob> makeBlobList(int size) {
      return Values.blobList(size);
    }

    @Override
    public Map<String, Blob> makeBlobMap(int size) {
      return Values.blobMap(size);
    }

    @Override
    public byte[] makeBytes(int size) {
      return Values.bytes(size);
    }

    @Override
    public String makeString(int size) {
      return Values.string(size);
    }
  }
}
