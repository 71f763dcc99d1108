package io.rpcx.core.internal.codec;

/**
 * A {@link ProtoWriter} was asked to write past the limit it was made with: the heap staging limit
 * of a small frame (the frame is then written again straight into a pooled buffer) or the frame
 * limit itself. A signal of its own type, thrown only by writers, so that nothing on the way can
 * take it for a failure of a codec or of user code; no catch block in the codecs wraps it. It
 * carries no stack trace: it is control flow, and the frame encoder turns it into a typed error
 * where the limit was the frame's.
 */
public final class WriteLimitException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final long limit;

  /** Writing {@code more} bytes at {@code position} would pass {@code limit}. */
  public WriteLimitException(long more, long position, long limit) {
    super("writing " + more + " bytes at " + position + " would pass the limit of " + limit, null,
        false, false);
    this.limit = limit;
  }

  /** The limit the writer was made with. */
  public long limit() {
    return limit;
  }
}
