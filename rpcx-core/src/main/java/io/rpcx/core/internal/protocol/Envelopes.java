package io.rpcx.core.internal.protocol;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;

/** What the hand-written parsers of rpcx.proto messages share. */
final class Envelopes {
  private Envelopes() {}

  /**
   * Skips an unknown field, as generated code does; an end-group tag with no group open is
   * malformed, as generated code finds when the message ends.
   */
  static void skipField(CodedInputStream in, int tag) throws IOException {
    if (!in.skipField(tag)) {
      throw new InvalidProtocolBufferException(
          "Protocol message end-group tag did not match expected tag.");
    }
  }
}
