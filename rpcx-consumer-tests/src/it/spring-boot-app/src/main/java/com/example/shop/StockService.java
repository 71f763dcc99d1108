package com.example.shop;

import io.rpcx.annotation.RPCXServer;
import org.springframework.stereotype.Service;

@Service
@RPCXServer(name = "stock")
public class StockService implements Stock {
  @Override
  public int available(String item) {
    return item.length();
  }
}
