package io.rpcx.benchmarks.feign;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rpcx.benchmarks.api.BenchmarkServiceImpl;
import io.rpcx.benchmarks.model.Message;
import io.rpcx.benchmarks.model.OrderInfo;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.List;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/**
 * The REST server of the Feign system: a Jetty 12 core handler that routes the requests of {@link
 * FeignBenchApi} to {@link BenchmarkServiceImpl}, reading and writing JSON with Jackson (binary
 * bodies raw). It blocks while it reads a body, so Jetty runs it on its thread pool, as a servlet
 * or a Spring MVC controller would run.
 *
 * <p>Thread-safe: one instance serves all requests.
 */
final class JsonBenchHandler extends Handler.Abstract {
  private static final String JSON = "application/json";
  private static final String BINARY = "application/octet-stream";
  private static final String MESSAGES = "/messages/";

  private final BenchmarkServiceImpl logic = new BenchmarkServiceImpl();
  private final ObjectMapper mapper;
  private final JavaType orderList;

  JsonBenchHandler(ObjectMapper mapper) {
    this.mapper = mapper;
    this.orderList = mapper.getTypeFactory().constructCollectionType(List.class, OrderInfo.class);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    String path = Request.getPathInContext(request);
    String method = request.getMethod();
    try (InputStream body = Content.Source.asInputStream(request)) {
      switch (path) {
        case "/echo":
          return json(response, callback, logic.echo(mapper.readValue(body, String.class)));
        case "/orders/one":
          return json(response, callback, logic.loadOrder(mapper.readValue(body, OrderInfo.class)));
        case "/orders/list":
          List<OrderInfo> orders = mapper.readValue(body, orderList);
          return json(response, callback, logic.loadOrders(orders));
        case "/bytes":
          return send(response, callback, BINARY, logic.echoBytes(body.readAllBytes()));
        case "/messages":
          return json(response, callback, logic.create(mapper.readValue(body, Message.class)));
        default:
          break;
      }
      if (path.startsWith(MESSAGES)) {
        long id = Long.parseLong(path.substring(MESSAGES.length()));
        switch (method) {
          case "PUT":
            return json(
                response, callback, logic.update(id, mapper.readValue(body, Message.class)));
          case "GET":
            Message found = logic.findById(id);
            return found == null
                ? status(response, callback, HttpStatus.NOT_FOUND_404)
                : json(response, callback, found);
          case "DELETE":
            return json(response, callback, logic.remove(id));
          default:
            return status(response, callback, HttpStatus.METHOD_NOT_ALLOWED_405);
        }
      }
      return status(response, callback, HttpStatus.NOT_FOUND_404);
    }
  }

  private boolean json(Response response, Callback callback, Object value) throws Exception {
    return send(response, callback, JSON, mapper.writeValueAsBytes(value));
  }

  private static boolean send(Response response, Callback callback, String type, byte[] body) {
    response.setStatus(HttpStatus.OK_200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }

  private static boolean status(Response response, Callback callback, int status) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 0);
    response.write(true, BufferUtil.EMPTY_BUFFER, callback);
    return true;
  }
}
