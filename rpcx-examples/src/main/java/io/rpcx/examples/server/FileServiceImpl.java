package io.rpcx.examples.server;

import io.rpcx.annotation.RPCXServer;
import io.rpcx.examples.api.FileService;
import io.rpcx.examples.api.UploadReceipt;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * Takes uploads in chunks, a few at a time: it asks for {@value #CHUNKS_AHEAD} chunks and for one
 * more as it finishes each, so the client never has more than that in flight. It keeps only the
 * size and the digest of what it received (a real service would write the chunks to storage).
 */
@RPCXServer(name = "files")
public class FileServiceImpl implements FileService {
  private static final int CHUNKS_AHEAD = 4;

  @Override
  public CompletableFuture<UploadReceipt> upload(String fileName, Flow.Publisher<byte[]> chunks) {
    CompletableFuture<UploadReceipt> receipt = new CompletableFuture<>();
    chunks.subscribe(
        new Flow.Subscriber<>() {
          private final MessageDigest digest = sha256();
          private Flow.Subscription subscription;
          private long bytes;
          private int count;

          @Override
          public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            subscription.request(CHUNKS_AHEAD);
          }

          @Override
          public void onNext(byte[] chunk) {
            digest.update(chunk);
            bytes += chunk.length;
            count++;
            subscription.request(1);
          }

          @Override
          public void onError(Throwable failure) {
            receipt.completeExceptionally(failure); // the client failed or cancelled the upload
          }

          @Override
          public void onComplete() {
            receipt.complete(
                new UploadReceipt(fileName, bytes, count, HexFormat.of().formatHex(digest.digest())));
          }
        });
    return receipt;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
