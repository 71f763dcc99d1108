package io.rpcx.core.internal.codec;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Date;
import java.util.UUID;

/**
 * Codecs of value classes of the JDK, each in the layout of the matching well-known or Google API
 * protobuf type where one exists: {@code Instant} and {@code Date} as {@code
 * google.protobuf.Timestamp}, {@code Duration} as {@code google.protobuf.Duration}, {@code
 * LocalDate} as {@code google.type.Date}, {@code LocalDateTime} as the first seven fields of {@code
 * google.type.DateTime}; {@code BigDecimal} as its exact decimal string, {@code BigInteger} as its
 * two's-complement bytes, {@code UUID} as 16 bytes, {@code ByteBuffer} as bytes.
 */
final class JavaTypeCodecs implements CodecFactory {

  @Override
  public String description() {
    return "JDK value types (Instant, Date, Duration, LocalDate, LocalDateTime, BigDecimal,"
        + " BigInteger, UUID, ByteBuffer)";
  }

  @Override
  public ValueCodec<?> create(Type type, CodecResolver resolver) {
    if (type == Instant.class) {
      return new InstantCodec();
    }
    if (type == Date.class) {
      return new DateCodec();
    }
    if (type == Duration.class) {
      return new DurationCodec();
    }
    if (type == LocalDate.class) {
      return new LocalDateCodec();
    }
    if (type == LocalDateTime.class) {
      return new LocalDateTimeCodec();
    }
    if (type == BigDecimal.class) {
      return new BigDecimalCodec();
    }
    if (type == BigInteger.class) {
      return new BigIntegerCodec();
    }
    if (type == UUID.class) {
      return new UuidCodec();
    }
    if (type == ByteBuffer.class) {
      return new ByteBufferCodec();
    }
    return null;
  }

  /** Reads a message of small integer fields (at most 8) into {@code values}, by field number. */
  private static long[] readIntegerFields(CodedInputStream in, int fields) throws IOException {
    long[] values = new long[fields + 1];
    int oldLimit = in.pushLimit(in.readRawVarint32());
    while (true) {
      int tag = in.readTag();
      if (tag == 0) {
        break;
      }
      int field = WireFormat.getTagFieldNumber(tag);
      if (field >= 1 && field <= fields && WireFormat.getTagWireType(tag) == ValueCodec.VARINT) {
        values[field] = in.readInt64();
      } else {
        in.skipField(tag);
      }
    }
    in.popLimit(oldLimit);
    return values;
  }

  /** Writes a message of integer fields 1..n, leaving zeros out. */
  private static void writeMessage(ProtoWriter out, long... values) {
    long mark = out.beginLengthDelimited();
    for (int i = 0; i < values.length; i++) {
      if (values[i] != 0) {
        out.writeTag(i + 1, ValueCodec.VARINT);
        out.writeVarint64(values[i]);
      }
    }
    out.endLengthDelimited(mark);
  }

  private static int narrow(long value, String what) throws CodecException {
    if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
      throw new CodecException(what + " " + value + " is out of range");
    }
    return (int) value;
  }

  static final class InstantCodec extends ValueCodec<Instant> {
    InstantCodec() {
      super("timestamp", LEN);
    }

    @Override
    public void write(ProtoWriter out, Instant value) throws IOException {
      writeMessage(out, value.getEpochSecond(), value.getNano());
    }

    @Override
    public Instant read(CodedInputStream in, DecodeContext context) throws IOException {
      long[] fields = readIntegerFields(in, 2);
      try {
        return Instant.ofEpochSecond(fields[1], fields[2]);
      } catch (DateTimeException | ArithmeticException e) {
        throw new CodecException("invalid timestamp: " + e.getMessage(), e);
      }
    }
  }

  static final class DateCodec extends ValueCodec<Date> {
    DateCodec() {
      super("timestamp", LEN);
    }

    private static long[] parts(Date value) {
      long millis = value.getTime();
      return new long[] {Math.floorDiv(millis, 1000), Math.floorMod(millis, 1000) * 1_000_000L};
    }

    @Override
    public void write(ProtoWriter out, Date value) throws IOException {
      writeMessage(out, parts(value));
    }

    @Override
    public Date read(CodedInputStream in, DecodeContext context) throws IOException {
      long[] fields = readIntegerFields(in, 2);
      try {
        return new Date(Math.addExact(Math.multiplyExact(fields[1], 1000L), fields[2] / 1_000_000));
      } catch (ArithmeticException e) {
        throw new CodecException("invalid timestamp: " + e.getMessage(), e);
      }
    }
  }

  static final class DurationCodec extends ValueCodec<Duration> {
    DurationCodec() {
      super("duration", LEN);
    }

    @Override
    public void write(ProtoWriter out, Duration value) throws IOException {
      writeMessage(out, value.getSeconds(), value.getNano());
    }

    @Override
    public Duration read(CodedInputStream in, DecodeContext context) throws IOException {
      long[] fields = readIntegerFields(in, 2);
      try {
        return Duration.ofSeconds(fields[1], fields[2]);
      } catch (ArithmeticException e) {
        throw new CodecException("invalid duration: " + e.getMessage(), e);
      }
    }
  }

  static final class LocalDateCodec extends ValueCodec<LocalDate> {
    LocalDateCodec() {
      super("date", LEN);
    }

    @Override
    public void write(ProtoWriter out, LocalDate value) throws IOException {
      writeMessage(out, value.getYear(), value.getMonthValue(), value.getDayOfMonth());
    }

    @Override
    public LocalDate read(CodedInputStream in, DecodeContext context) throws IOException {
      long[] fields = readIntegerFields(in, 3);
      try {
        return LocalDate.of(
            narrow(fields[1], "year"), narrow(fields[2], "month"), narrow(fields[3], "day"));
      } catch (DateTimeException e) {
        throw new CodecException("invalid date: " + e.getMessage(), e);
      }
    }
  }

  static final class LocalDateTimeCodec extends ValueCodec<LocalDateTime> {
    LocalDateTimeCodec() {
      super("datetime", LEN);
    }

    private static long[] parts(LocalDateTime value) {
      return new long[] {
        value.getYear(),
        value.getMonthValue(),
        value.getDayOfMonth(),
        value.getHour(),
        value.getMinute(),
        value.getSecond(),
        value.getNano()
      };
    }

    @Override
    public void write(ProtoWriter out, LocalDateTime value) throws IOException {
      writeMessage(out, parts(value));
    }

    @Override
    public LocalDateTime read(CodedInputStream in, DecodeContext context) throws IOException {
      long[] f = readIntegerFields(in, 7);
      try {
        return LocalDateTime.of(
            narrow(f[1], "year"),
            narrow(f[2], "month"),
            narrow(f[3], "day"),
            narrow(f[4], "hours"),
            narrow(f[5], "minutes"),
            narrow(f[6], "seconds"),
            narrow(f[7], "nanos"));
      } catch (DateTimeException e) {
        throw new CodecException("invalid date-time: " + e.getMessage(), e);
      }
    }
  }

  static final class BigDecimalCodec extends ValueCodec<BigDecimal> {
    /** Longest decimal string accepted; far beyond any real amount, short of a parsing attack. */
    private static final int MAX_DIGITS = 1024;

    BigDecimalCodec() {
      super("decimal", LEN);
    }

    @Override
    public void write(ProtoWriter out, BigDecimal value) throws IOException {
      out.writeString(value.toString());
    }

    @Override
    public BigDecimal read(CodedInputStream in, DecodeContext context) throws IOException {
      String text = Utf8Strings.read(in);
      if (text.length() > MAX_DIGITS) {
        throw new CodecException("decimal of " + text.length() + " characters is too long");
      }
      try {
        BigDecimal value = new BigDecimal(text);
        if (Math.abs((long) value.scale()) > MAX_DIGITS) {
          throw new CodecException("decimal scale " + value.scale() + " is out of range");
        }
        return value;
      } catch (NumberFormatException e) {
        throw new CodecException(
            "invalid decimal '" + ScalarCodecs.abbreviate(text) + "'", e);
      }
    }
  }

  static final class BigIntegerCodec extends ValueCodec<BigInteger> {
    BigIntegerCodec() {
      super("bigint", LEN);
    }

    @Override
    public void write(ProtoWriter out, BigInteger value) throws IOException {
      out.writeByteArray(value.toByteArray());
    }

    @Override
    public BigInteger read(CodedInputStream in, DecodeContext context) throws IOException {
      byte[] bytes = in.readByteArray();
      if (bytes.length == 0) {
        throw new CodecException("empty bigint");
      }
      return new BigInteger(bytes);
    }
  }

  static final class UuidCodec extends ValueCodec<UUID> {
    UuidCodec() {
      super("uuid", LEN);
    }

    @Override
    public void write(ProtoWriter out, UUID value) throws IOException {
      out.writeByte(16);
      out.writeFixed64(Long.reverseBytes(value.getMostSignificantBits()));
      out.writeFixed64(Long.reverseBytes(value.getLeastSignificantBits()));
    }

    @Override
    public UUID read(CodedInputStream in, DecodeContext context) throws IOException {
      int length = in.readRawVarint32();
      if (length != 16) {
        throw new CodecException("a uuid has 16 bytes, not " + length);
      }
      long most = Long.reverseBytes(in.readFixed64());
      long least = Long.reverseBytes(in.readFixed64());
      return new UUID(most, least);
    }
  }

  /**
   * A {@code ByteBuffer}'s remaining bytes, written without disturbing its position; read into a
   * new heap buffer (the one copy out of the received frame).
   */
  static final class ByteBufferCodec extends ValueCodec<ByteBuffer> {
    ByteBufferCodec() {
      super("bytes", LEN);
    }

    @Override
    public void write(ProtoWriter out, ByteBuffer value) throws IOException {
      out.writeVarint32(value.remaining());
      out.writeBytes(value);
    }

    @Override
    public ByteBuffer read(CodedInputStream in, DecodeContext context) throws IOException {
      return ByteBuffer.wrap(in.readByteArray());
    }

    @Override
    public boolean isBulkBytes() {
      return true;
    }
  }
}
