package io.rpcx.testsuite;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import java.util.List;
import java.util.concurrent.Flow;

/**
 * A shop whose methods declare exceptions with fields, as a team's own domain exceptions look: a
 * class with a constructor named as its fields, one rebuilt through its canonical constructor, a
 * sealed family, and a subclass the client cannot know.
 */
@RPCXClient(name = "shop")
public interface Shop {

  /** Throws {@link OutOfStockException} with {@code alternatives} of its own when asked. */
  String buy(String sku, int quantity, List<Alternative> alternatives)
      throws OutOfStockException, QuotaExceededException;

  /** Throws {@link QuotaExceededException} for {@code user}, with {@code recent}. */
  void upload(String user, long bytes, List<String> recent) throws QuotaExceededException;

  /** Throws {@link CardDeclinedException} or {@link FraudSuspectedException}. */
  void pay(String card, double score) throws PaymentException;

  /** Throws a {@link BackorderedException}, which extends the declared {@link OutOfStockException}. */
  void backorder(String sku) throws OutOfStockException;

  /** Emits {@code count} items, then fails with {@link OutOfStockException}. */
  Flow.Publisher<String> watch(String sku, int count) throws OutOfStockException;

  /** Throws an {@link IllegalStateException}, which no method declares. */
  void restock(String sku);

  /** Throws {@link OutOfStockException} from {@code depth} calls deep: a long stack trace. */
  void reserve(String sku, int depth) throws OutOfStockException;

  /** Another item the shop offers instead. */
  record Alternative(String sku, int available) {}

  /**
   * A domain exception as a team writes it: final fields, a constructor named as them that makes
   * the message, getters. Rebuilt through that constructor (names, from -parameters).
   */
  class OutOfStockException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String sku;
    private final int requested;
    private final int available;
    private final List<Alternative> alternatives;

    public OutOfStockException(
        String sku, int requested, int available, List<Alternative> alternatives) {
      super("out of stock: " + sku + " (" + requested + " requested, " + available + " available)");
      this.sku = sku;
      this.requested = requested;
      this.available = available;
      this.alternatives = alternatives;
    }

    public String getSku() {
      return sku;
    }

    public int getRequested() {
      return requested;
    }

    public int getAvailable() {
      return available;
    }

    public List<Alternative> getAlternatives() {
      return alternatives;
    }
  }

  /**
   * A record-like exception: its only constructor takes the message, then its fields in
   * declaration order, under other names (the canonical constructor, found by types).
   */
  final class QuotaExceededException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String user;
    private final long limit;
    private final List<String> recent;

    public QuotaExceededException(String message, String account, long bytes, List<String> last) {
      super(message);
      this.user = account;
      this.limit = bytes;
      this.recent = last;
    }

    public String user() {
      return user;
    }

    public long limit() {
      return limit;
    }

    public List<String> recent() {
      return recent;
    }
  }

  /** A sealed family: the method declares the parent, the server throws one of its members. */
  abstract sealed class PaymentException extends Exception
      permits CardDeclinedException, FraudSuspectedException {
    private static final long serialVersionUID = 1L;

    PaymentException(String message) {
      super(message);
    }
  }

  final class CardDeclinedException extends PaymentException {
    private static final long serialVersionUID = 1L;

    private final String card;

    public CardDeclinedException(String card) {
      super("card " + card + " declined");
      this.card = card;
    }

    public String card() {
      return card;
    }
  }

  final class FraudSuspectedException extends PaymentException {
    private static final long serialVersionUID = 1L;

    private final double score;

    public FraudSuspectedException(double score) {
      super("fraud suspected (score " + score + ")");
      this.score = score;
    }

    public double score() {
      return score;
    }
  }

  /** A subclass only the server knows of: it arrives as the declared class it extends. */
  final class BackorderedException extends OutOfStockException {
    private static final long serialVersionUID = 1L;

    private final String expected;

    public BackorderedException(String sku, String expected) {
      super(sku, 1, 0, List.of());
      this.expected = expected;
    }

    public String expected() {
      return expected;
    }
  }

  /** Throws what each method says. */
  @RPCXServer(name = "shop")
  final class Impl implements Shop {
    @Override
    public String buy(String sku, int quantity, List<Alternative> alternatives)
        throws OutOfStockException, QuotaExceededException {
      if (quantity < 0) {
        throw new QuotaExceededException("no negative orders", sku, quantity, null);
      }
      throw new OutOfStockException(sku, quantity, quantity / 2, alternatives);
    }

    @Override
    public void upload(String user, long bytes, List<String> recent)
        throws QuotaExceededException {
      throw new QuotaExceededException(
          user + " is over the quota of " + bytes + " bytes", user, bytes, recent);
    }

    @Override
    public void pay(String card, double score) throws PaymentException {
      if (score > 0.5) {
        throw new FraudSuspectedException(score);
      }
      throw new CardDeclinedException(card);
    }

    @Override
    public void backorder(String sku) throws OutOfStockException {
      throw new BackorderedException(sku, "next week");
    }

    @Override
    public void restock(String sku) {
      throw new IllegalStateException("no supplier for " + sku);
    }

    @Override
    public void reserve(String sku, int depth) throws OutOfStockException {
      if (depth > 0) {
        reserve(sku, depth - 1);
      }
      throw new OutOfStockException(sku, 1, 0, List.of());
    }

    @Override
    public Flow.Publisher<String> watch(String sku, int count) {
      return subscriber ->
          subscriber.onSubscribe(
              new Flow.Subscription() {
                private int sent;
                private boolean done;

                @Override
                public synchronized void request(long n) {
                  for (long i = 0; i < n && !done; i++) {
                    if (sent == count) {
                      done = true;
                      subscriber.onError(new OutOfStockException(sku, count + 1, count, List.of()));
                    } else {
                      subscriber.onNext(sku + "-" + sent++);
                    }
                  }
                }

                @Override
                public synchronized void cancel() {
                  done = true;
                }
              });
    }
  }
}
