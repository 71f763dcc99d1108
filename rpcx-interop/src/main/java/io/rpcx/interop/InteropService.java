package io.rpcx.interop;

import io.rpcx.annotation.RPCXClient;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * A service of every call shape and every kind of value, published by {@link InteropServer} and
 * called by peers that know it only from its exported {@code .proto} (package {@code interop},
 * service {@code Interop}).
 */
@RPCXClient(name = "interop")
public interface InteropService {

  /** Returns {@code text}: null, empty and long strings alike. */
  String echo(String text);

  /** Returns {@code value}: zero, negative and extreme values alike. */
  long echoLong(long value);

  /** Returns {@code value}. */
  boolean echoBoolean(boolean value);

  /** Returns {@code value}. */
  Integer echoBoxed(Integer value);

  /** Returns {@code data}. */
  byte[] echoBytes(byte[] data);

  /** Returns {@code item}, a record with nested values. */
  Item echoItem(Item item);

  /** Returns {@code shelf}, a POJO with nested values. */
  Shelf echoShelf(Shelf shelf);

  /** Returns {@code items}. */
  List<Item> echoItems(List<Item> items);

  /** Returns {@code counts}. */
  Map<String, Integer> echoMap(Map<String, Integer> counts);

  /** {@code a + b}: two arguments of different types. */
  long add(int a, long b);

  /** {@code size} bytes, each {@code (byte) i}. */
  byte[] bytesOfSize(int size);

  /** The value of the call's metadata {@code key}, or null. */
  String metadata(String key);

  /** The deadline the call arrived with, in milliseconds from now, or -1 without one. */
  long remainingMillis();

  /** Sleeps {@code millis}, then returns "slept". */
  String sleep(long millis);

  /** Fails with the declared exception. */
  void failDeclared(String message) throws InteropException;

  /** {@code text} upper-cased, completed later on another thread. */
  CompletableFuture<String> upperLater(String text);

  /** Server stream: items {@code 0 .. count - 1}, as the reader asks for them. */
  Flow.Publisher<Item> count(int count);

  /** Server stream: {@code total} bytes in chunks of {@code chunkSize}, made as they are asked for. */
  Flow.Publisher<byte[]> chunks(int chunkSize, long total);

  /** Server stream: {@code count} items, then an {@code IllegalStateException}. */
  Flow.Publisher<Item> countThenFail(int count);

  /** Client stream: the sum of the numbers sent. */
  CompletableFuture<Long> sum(Flow.Publisher<Integer> numbers);

  /** Client stream with another argument: the parts joined by {@code separator}. */
  CompletableFuture<String> join(String separator, Flow.Publisher<String> parts);

  /**
   * Client stream whose subscriber never requests an element: what the client sends stays with the
   * transport (its flow-control window) until the caller gives up.
   */
  CompletableFuture<Long> stall(Flow.Publisher<byte[]> chunks);

  /** Bidirectional stream: each text back upper-cased, as it arrives. */
  Flow.Publisher<String> upper(Flow.Publisher<String> texts);
}
