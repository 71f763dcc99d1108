package io.rpcx.benchmarks.feign;

import feign.Headers;
import feign.Param;
import feign.RequestLine;
import io.rpcx.benchmarks.model.Message;
import io.rpcx.benchmarks.model.OrderInfo;
import java.util.List;

/**
 * The benchmark service as a REST API, declared the Feign way. Bodies are JSON except {@link
 * #echoBytes}, which sends and receives {@code application/octet-stream} as a REST API for binary
 * data does (rather than base64 inside JSON). {@link JsonBenchHandler} is the server side.
 */
interface FeignBenchApi {

  @RequestLine("POST /echo")
  @Headers("Content-Type: application/json")
  String echo(String text);

  @RequestLine("POST /orders/one")
  @Headers("Content-Type: application/json")
  OrderInfo loadOrder(OrderInfo order);

  @RequestLine("POST /orders/list")
  @Headers("Content-Type: application/json")
  List<OrderInfo> loadOrders(List<OrderInfo> orders);

  @RequestLine("POST /bytes")
  @Headers("Content-Type: application/octet-stream")
  byte[] echoBytes(byte[] data);

  @RequestLine("POST /messages")
  @Headers("Content-Type: application/json")
  Message create(Message message);

  @RequestLine("PUT /messages/{id}")
  @Headers("Content-Type: application/json")
  boolean update(@Param("id") long id, Message message);

  /** {@code null} when the server answers 404 (the client is built with {@code dismiss404()}). */
  @RequestLine("GET /messages/{id}")
  Message findById(@Param("id") long id);

  @RequestLine("DELETE /messages/{id}")
  boolean remove(@Param("id") long id);
}
