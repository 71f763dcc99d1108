package io.rpcx.benchmarks.dubbo;

import io.rpcx.benchmarks.api.BenchmarkClient;
import io.rpcx.benchmarks.api.BenchmarkServer;
import io.rpcx.benchmarks.api.BenchmarkService;
import io.rpcx.benchmarks.api.BenchmarkServiceImpl;
import io.rpcx.benchmarks.api.BenchmarkSystem;
import io.rpcx.benchmarks.api.Versions;
import io.rpcx.benchmarks.api.Workload;
import io.rpcx.benchmarks.model.Message;
import io.rpcx.benchmarks.model.OrderInfo;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import org.apache.dubbo.common.utils.NetUtils;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.rpc.model.FrameworkModel;

/**
 * Apache Dubbo 3.3 with its classic {@code dubbo} protocol over Netty 4, hessian2 serialization, no
 * registry ({@code N/A}) and a direct connection from the consumer to {@code
 * dubbo://127.0.0.1:port}, QoS off.
 *
 * <p>Server: the provider's default threading (dispatcher {@code all}, a fixed pool of 200
 * threads). Client: one reference whose calls share Dubbo's single default connection, 60 s timeout
 * and no retries, so a failure shows instead of being retried away. Provider and consumer each get
 * their own {@link FrameworkModel}, which keeps them as separate as two processes (no in-JVM
 * shortcut: the service is also exported with scope {@code remote} only).
 *
 * <p><b>Staying on loopback.</b> Dubbo 3.3 treats every host starting with {@code 127.} as "no host
 * configured": it then binds the server to {@code 0.0.0.0} and looks for "the machine's address" by
 * probing the non-loopback interfaces with {@code InetAddress.isReachable}, which sends packets to
 * the interface's address; {@code DUBBO_IP_TO_BIND=127.0.0.1} is rejected outright. So:
 *
 * <ul>
 *   <li>the provider's host is {@value #LOOPBACK_AS_NUMBER}, which is 127.0.0.1 written as one
 *       32-bit number (the {@code inet_aton} form that {@link InetAddress} accepts): Dubbo takes it
 *       as a real address and binds (and advertises) exactly 127.0.0.1;
 *   <li>Dubbo's cached "local address" ({@code NetUtils.LOCAL_ADDRESS} and {@code HOST_ADDRESS}) is
 *       set to 127.0.0.1 (and its IPv6 counterpart to "none") before Dubbo first looks it up, and
 *       {@code dubbo.network.interface.ignored=.*} hides every interface from its discovery, so no
 *       interface is ever probed. The cache has to be set: Dubbo does not cache a failed discovery
 *       and would repeat it, with a warning, on every call (its profiler filter asks for the local
 *       host per request).
 * </ul>
 *
 * <p>The consumer connects to 127.0.0.1 directly, so all traffic, including the one TCP connection,
 * stays on loopback ({@code ss -tn} during a run shows only 127.0.0.1 endpoints).
 */
public final class DubboSystem implements BenchmarkSystem {
  /** 127.0.0.1 as the single number 0x7F000001; see the class comment. */
  static final String LOOPBACK_AS_NUMBER = "2130706433";

  private static final int TIMEOUT_MILLIS = 60_000;
  private static final int SHUTDOWN_WAIT_MILLIS = 1_000;

  static {
    // Dubbo otherwise probes for a logging framework and says so on stdout.
    System.setProperty("dubbo.application.logger", "slf4j");
    System.setProperty("dubbo.network.interface.ignored", ".*");
    pinLocalAddressToLoopback();
  }

  @Override
  public String name() {
    return "dubbo";
  }

  @Override
  public String description() {
    return "Apache Dubbo "
        + Versions.get("dubbo")
        + ", dubbo protocol over Netty "
        + Versions.get("netty")
        + ", hessian2, fixed pool of 200 server threads, one shared connection, no registry";
  }

  @Override
  public boolean supports(Workload workload) {
    return true;
  }

  @Override
  public BenchmarkServer startServer() throws IOException {
    // Dubbo has no "port 0": it maps 0 to its default 20880. Ask the OS for a free port instead.
    int port = freeLoopbackPort();
    FrameworkModel framework = new FrameworkModel();
    DubboBootstrap bootstrap = DubboBootstrap.newInstance(framework);
    try {
      ProtocolConfig protocol = new ProtocolConfig("dubbo", port);
      protocol.setHost(LOOPBACK_AS_NUMBER);
      protocol.setSerialization("hessian2");
      protocol.setPreferSerialization("hessian2");

      ServiceConfig<BenchmarkService> service = new ServiceConfig<>();
      service.setInterface(BenchmarkService.class);
      service.setRef(new BenchmarkServiceImpl());
      service.setScope("remote");

      bootstrap
          .application(application("rpcx-bench-dubbo-provider"))
          .registry(new RegistryConfig(RegistryConfig.NO_AVAILABLE))
          .protocol(protocol)
          .service(service)
          .start();
    } catch (RuntimeException e) {
      framework.destroy();
      throw e;
    }
    return new BenchmarkServer() {
      @Override
      public int port() {
        return port;
      }

      @Override
      public void close() {
        bootstrap.stop();
        framework.destroy();
      }
    };
  }

  @Override
  public BenchmarkClient connect(int port) {
    FrameworkModel framework = new FrameworkModel();
    DubboBootstrap bootstrap = DubboBootstrap.newInstance(framework);
    try {
      ReferenceConfig<BenchmarkService> reference = new ReferenceConfig<>();
      reference.setInterface(BenchmarkService.class);
      // The consumer encodes with the serialization named in the URL; the provider answers in kind.
      reference.setUrl("dubbo://127.0.0.1:" + port + "?serialization=hessian2");
      reference.setScope("remote");
      reference.setTimeout(TIMEOUT_MILLIS);
      reference.setRetries(0);
      reference.setCheck(true);

      bootstrap
          .application(application("rpcx-bench-dubbo-consumer"))
          .registry(new RegistryConfig(RegistryConfig.NO_AVAILABLE))
          .reference(reference)
          .start();
      return new Client(reference.get(), bootstrap, framework);
    } catch (RuntimeException e) {
      framework.destroy();
      throw e;
    }
  }

  private static ApplicationConfig application(String name) {
    ApplicationConfig app = new ApplicationConfig(name);
    app.setQosEnable(false);
    app.setEnableFileCache(false);
    // Graceful shutdown waits for in-flight calls; there are none when a trial ends, and the
    // default (10 s) made every server stop take over 5 s.
    app.setShutwait(Integer.toString(SHUTDOWN_WAIT_MILLIS));
    return app;
  }

  /** See the class comment. Fails loudly if a Dubbo upgrade renamed the fields. */
  private static void pinLocalAddressToLoopback() {
    try {
      setStatic("LOCAL_ADDRESS", InetAddress.getByAddress(new byte[] {127, 0, 0, 1}));
      setStatic("HOST_ADDRESS", "127.0.0.1");
      // "" is Dubbo's cached answer for "this machine has no IPv6 address to advertise".
      setStatic("HOST_ADDRESS_V6", "");
    } catch (ReflectiveOperationException | IOException e) {
      throw new IllegalStateException(
          "cannot pin Dubbo's local address to 127.0.0.1 (NetUtils changed in Dubbo "
              + Versions.get("dubbo")
              + "?); refusing to let Dubbo probe network interfaces",
          e);
    }
  }

  private static void setStatic(String field, Object value) throws ReflectiveOperationException {
    Field f = NetUtils.class.getDeclaredField(field);
    f.setAccessible(true);
    f.set(null, value);
  }

  private static int freeLoopbackPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** Delegates to Dubbo's proxy of {@link BenchmarkService}. */
  private static final class Client implements BenchmarkClient {
    private final BenchmarkService proxy;
    private final DubboBootstrap bootstrap;
    private final FrameworkModel framework;

    Client(BenchmarkService proxy, DubboBootstrap bootstrap, FrameworkModel framework) {
      this.proxy = proxy;
      this.bootstrap = bootstrap;
      this.framework = framework;
    }

    @Override
    public String echo(String text) {
      return proxy.echo(text);
    }

    @Override
    public OrderInfo loadOrder(OrderInfo order) {
      return proxy.loadOrder(order);
    }

    @Override
    public List<OrderInfo> loadOrders(List<OrderInfo> orders) {
      return proxy.loadOrders(orders);
    }

    @Override
    public byte[] echoBytes(byte[] data) {
      return proxy.echoBytes(data);
    }

    @Override
    public Message create(Message message) {
      return proxy.create(message);
    }

    @Override
    public boolean update(long id, Message message) {
      return proxy.update(id, message);
    }

    @Override
    public Message findById(long id) {
      return proxy.findById(id);
    }

    @Override
    public boolean remove(long id) {
      return proxy.remove(id);
    }

    @Override
    public void close() {
      bootstrap.destroy();
      // Closing the connection queues a "disconnected" event on Dubbo's executor; destroying the
      // framework before it runs makes Dubbo log "ExtensionDirector is destroyed". Let it run.
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      framework.destroy();
    }
  }
}
