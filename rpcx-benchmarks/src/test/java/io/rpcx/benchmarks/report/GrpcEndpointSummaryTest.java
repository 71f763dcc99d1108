package io.rpcx.benchmarks.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * The gRPC endpoint tables: calls per second and CPU per call (server JVM / client JVM) per cell,
 * rows in workload and thread order whatever the files' order, and issue 28's two targets checked
 * on RPCX's endpoint against grpc-java's server.
 */
class GrpcEndpointSummaryTest {
  private static final String RESULT =
      """
      {"benchmark": "io.rpcx.benchmarks.jmh.ThroughputBenchmark.%s", "mode": "thrpt", "forks": 3,
       "params": {"system": "%s", "workload": "%s"},
       "primaryMetric": {"score": %s, "scoreError": 1000.4, "scoreUnit": "ops/s"},
       "secondaryMetrics": {
         "cpu.time.norm": {"score": %s, "scoreUnit": "µs/op"},
         "server.cpu.time.norm": {"score": %s, "scoreUnit": "µs/op"}}}
      """;

  private static String result(
      String threads, String system, String workload, double calls, double client, double server) {
    return RESULT.formatted(threads, system, workload, calls, client, server);
  }

  @Test
  void tablesAndTargetsPerCell() throws Exception {
    JsonNode file =
        new ObjectMapper()
            .readTree(
                "["
                    + String.join(
                        ",",
                        result("threads032", "grpc-exported", "order", 20000, 40, 50),
                        result("threads032", "grpc-on-rpcx", "order", 22000, 40, 45),
                        result("threads001", "grpc-exported", "echo16", 5000, 60, 80),
                        result("threads001", "grpc-on-rpcx", "echo16", 7000, 60, 40),
                        result("threads001", "rpcx", "echo16", 11000, 30, 20),
                        result("threads001", "grpc-native", "echo16", 5100, 61, 79),
                        // not a system of these tables
                        result("threads001", "dubbo", "echo16", 9000, 1, 1))
                    + "]");
    GrpcEndpointSummary summary = new GrpcEndpointSummary();
    summary.add(file);
    assertEquals(
        """
        #### Calls per second (higher is better; ± JMH's 99.9% interval)

        | cell | grpc-java's server (`grpc-exported`) | RPCX's gRPC endpoint (`grpc-on-rpcx`) \
        | RPCX's protocol (`rpcx`) | grpc-java, hand-written schema (`grpc-native`) \
        | RPCX's endpoint ÷ grpc-java's server |
        |---|---:|---:|---:|---:|---:|
        | echo16, 1 caller thread | 5,000 ± 1,000 | 7,000 ± 1,000 | 11,000 ± 1,000 \
        | 5,100 ± 1,000 | 1.40× |
        | order, 32 caller threads | 20,000 ± 1,000 | 22,000 ± 1,000 | – | – | 1.10× |

        #### CPU time per call, server JVM / client JVM (µs; lower is better)

        | cell | grpc-java's server (`grpc-exported`) | RPCX's gRPC endpoint (`grpc-on-rpcx`) \
        | RPCX's protocol (`rpcx`) | grpc-java, hand-written schema (`grpc-native`) \
        | server: RPCX's endpoint ÷ grpc-java's server \
        | both JVMs: RPCX's endpoint ÷ grpc-java's server |
        |---|---:|---:|---:|---:|---:|---:|
        | echo16, 1 caller thread | 80.0 / 60.0 | 40.0 / 60.0 | 20.0 / 30.0 | 79.0 / 61.0 \
        | 0.50× | 0.71× |
        | order, 32 caller threads | 50.0 / 40.0 | 45.0 / 40.0 | – | – | 0.90× | 0.94× |

        #### Targets (issue 28: the same grpc-java client, RPCX's endpoint against grpc-java's \
        server)

        | cell | calls/s: RPCX ÷ grpc-java (wanted ≥ 1.20×) | met \
        | server CPU per call: RPCX ÷ grpc-java (wanted ≤ 0.80×) | met |
        |---|---:|---|---:|---|
        | echo16, 1 caller thread | 1.40× | yes | 0.50× | yes |
        | order, 32 caller threads | 1.10× | **no** | 0.90× | **no** |
        """,
        summary.markdown());
  }

  @Test
  void noResultsSaySo() {
    assertEquals(
        "No results of grpc-exported, grpc-on-rpcx, rpcx, grpc-native.\n\n",
        new GrpcEndpointSummary().markdown());
  }
}
