package io.rpcx.core.internal.stream;

import java.util.ArrayList;
import java.util.List;

/**
 * The streams of one connection that received messages during the current read, each handed them
 * on once when the read is complete ({@code channelReadComplete}, and before {@code
 * channelInactive}) instead of once per message: one wake-up of a stream's delivering thread per
 * read. Event loop only.
 */
public final class ReadArrivals {
  private final List<Receiver> pending = new ArrayList<>();

  /** Something that keeps the messages of a read and hands them on at its end. */
  public abstract static class Receiver {
    /** In this read's list already; event loop only. */
    private boolean listed;

    /** The messages it kept in this read are all in: hand them on. On the event loop. */
    protected abstract void messagesArrived();
  }

  /** {@code receiver} kept a message in this read. */
  public void add(Receiver receiver) {
    if (!receiver.listed) {
      receiver.listed = true;
      pending.add(receiver);
    }
  }

  /** The read is complete: every receiver that kept messages in it hands them on. */
  public void readComplete() {
    int count = pending.size();
    if (count == 0) {
      return;
    }
    for (int i = 0; i < count; i++) {
      Receiver receiver = pending.get(i);
      receiver.listed = false;
      receiver.messagesArrived();
    }
    pending.clear();
  }
}
