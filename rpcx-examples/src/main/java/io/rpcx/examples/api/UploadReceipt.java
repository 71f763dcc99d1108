package io.rpcx.examples.api;

/** What the server received of an upload: its size, chunk count and SHA-256 (hex). */
public record UploadReceipt(String fileName, long bytes, int chunks, String sha256) {}
