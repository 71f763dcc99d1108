package io.rpcx.benchmarks.feign;

import com.fasterxml.jackson.databind.ObjectMapper;
import feign.RequestTemplate;
import feign.Response;
import feign.Util;
import feign.codec.Decoder;
import feign.codec.Encoder;
import feign.jackson.JacksonDecoder;
import feign.jackson.JacksonEncoder;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Type;

/**
 * Feign's body codec for {@link FeignBenchApi}: {@code byte[]} travels raw, everything else as JSON
 * through Feign's own Jackson encoder and decoder. Stateless and thread-safe.
 */
final class BinaryOrJsonCodec implements Encoder, Decoder {
  private final JacksonEncoder json;
  private final JacksonDecoder jsonDecoder;

  BinaryOrJsonCodec(ObjectMapper mapper) {
    this.json = new JacksonEncoder(mapper);
    this.jsonDecoder = new JacksonDecoder(mapper);
  }

  @Override
  public void encode(Object object, Type bodyType, RequestTemplate template) {
    if (bodyType == byte[].class) {
      template.body((byte[]) object, null);
    } else {
      json.encode(object, bodyType, template);
    }
  }

  @Override
  public Object decode(Response response, Type type) throws IOException {
    if (type == byte[].class && response.body() != null) {
      try (InputStream in = response.body().asInputStream()) {
        return Util.toByteArray(in);
      }
    }
    return jsonDecoder.decode(response, type);
  }
}
