package io.rpcx.examples.server;

import io.rpcx.annotation.RPCXServer;
import io.rpcx.examples.api.Info;
import io.rpcx.examples.api.InfoService;
import io.rpcx.examples.api.Samples;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Serves people with or without their photo, as the server of seed 002 does. */
@RPCXServer(name = "infos")
public class InfoServiceImpl implements InfoService {
  private final Map<Integer, Info> withPhotos = new ConcurrentHashMap<>();

  @Override
  public Info request(int id, boolean photo) {
    Info info = withPhotos.computeIfAbsent(id, key -> Samples.info(key, true));
    return photo ? info : info.withoutPhoto();
  }
}
