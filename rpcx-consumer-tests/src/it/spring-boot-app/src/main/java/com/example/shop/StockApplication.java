package com.example.shop;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/** The server side: publishes {@link StockService}. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(StockService.class)
public class StockApplication {}
