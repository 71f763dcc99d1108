package io.rpcx.examples.api;

import io.rpcx.annotation.RPCXClient;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * Uploads a file in chunks: a <b>client stream</b> (docs/STREAMING.md). The client's publisher sets
 * nothing: the server's subscriber does, so a fast client never has more chunks in flight than the
 * server asked for, however large the file.
 */
@RPCXClient(name = "files", address = "127.0.0.1", port = 9000)
public interface FileService {

  /**
   * Receives {@code chunks} (each one message, at most the frame limit: 1 MiB is a good size) and
   * answers once the publisher has completed and every chunk was taken in.
   */
  CompletableFuture<UploadReceipt> upload(String fileName, Flow.Publisher<byte[]> chunks);
}
