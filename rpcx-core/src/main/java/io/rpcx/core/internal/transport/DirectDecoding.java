package io.rpcx.core.internal.transport;

import com.google.protobuf.CodedInputStream;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Whether the protobuf-java on the class path decodes direct buffers in place. Releases up to 4.33
 * do (where {@code sun.misc.Unsafe} is usable); 4.34 and later copy a direct buffer to a byte array
 * first, and stream over a list of buffers. Found once by asking protobuf for a decoder over direct
 * memory and comparing it with the decoders it makes for a byte array and for a stream, so that no
 * version number or class name is involved.
 */
final class DirectDecoding {
  /** Whether one direct buffer is decoded where it lies. */
  static final boolean SINGLE_IN_PLACE;

  /** Whether the direct buffers of a composite are decoded where they lie, without merging. */
  static final boolean COMPOSITE_IN_PLACE;

  static {
    Class<?> array = CodedInputStream.newInstance(new byte[1]).getClass();
    Class<?> stream = CodedInputStream.newInstance(new ByteArrayInputStream(new byte[1])).getClass();
    Class<?> single = CodedInputStream.newInstance(ByteBuffer.allocateDirect(1)).getClass();
    Class<?> composite =
        CodedInputStream.newInstance(List.of(ByteBuffer.allocateDirect(1), ByteBuffer.allocateDirect(1)))
            .getClass();
    SINGLE_IN_PLACE = single != array && single != stream;
    COMPOSITE_IN_PLACE = composite != array && composite != stream;
  }

  private DirectDecoding() {}
}
