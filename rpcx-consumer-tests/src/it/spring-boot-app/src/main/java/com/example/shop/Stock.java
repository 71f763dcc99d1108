package com.example.shop;

import io.rpcx.annotation.RPCXClient;

@RPCXClient(name = "stock")
public interface Stock {
  int available(String item);
}
