package io.rpcx.examples.client;

import io.rpcx.client.DnsDiscovery;
import io.rpcx.client.EndpointStatus;
import io.rpcx.client.RpcxClient;
import io.rpcx.examples.api.ChatService;
import io.rpcx.examples.api.EchoService;
import io.rpcx.examples.api.FileService;
import io.rpcx.examples.api.Info;
import io.rpcx.examples.api.InfoService;
import io.rpcx.examples.api.Message;
import io.rpcx.examples.api.MessageService;
import io.rpcx.examples.api.OrderInfo;
import io.rpcx.examples.api.OrderNotFoundException;
import io.rpcx.examples.api.OrderService;
import io.rpcx.examples.api.Samples;
import io.rpcx.core.discovery.ServiceDiscovery;
import io.rpcx.kubernetes.KubernetesDiscovery;
import io.rpcx.registry.zookeeper.ZooKeeperRegistry;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

/**
 * Calls every example method once and prints each call with its result:
 *
 * <pre>
 * java -jar rpcx-example-client.jar [--host H] [--port N]
 * java -jar rpcx-example-client.jar --zookeeper HOST:PORT[,...] [--expect-servers N]
 * java -jar rpcx-example-client.jar --dns dns:///NAME:PORT [--run-for SECONDS]
 * java -jar rpcx-example-client.jar --kubernetes SERVICE [--namespace NS] [--port-name NAME]
 *     [--run-for SECONDS]
 * </pre>
 *
 * With {@code --dns}, the servers are every A/AAAA record of the name ({@link DnsDiscovery});
 * with {@code --kubernetes}, the ready pods of the Kubernetes Service, by the port named {@code
 * --port-name} (default {@code rpcx}), in the pod's namespace unless {@code --namespace} says
 * ({@link KubernetesDiscovery}). With {@code --run-for}, the client calls echo from 4 threads for
 * that many seconds (0: until stopped) instead, printing every second how the calls spread over
 * the servers and how many failed; it exits 0 if none failed.
 *
 * With {@code --zookeeper}, the client finds the servers there (waiting until it knows {@code
 * --expect-servers}, default 1), spreads its calls over them, and shows how many calls each
 * server took; the message CRUD calls are skipped, since each example server keeps its messages in
 * its own memory. Exits 0 if every call returned what it should, 1 otherwise.
 */
public final class ExampleClient {
  private int failures;

  /** A client run that has made no call yet. */
  public ExampleClient() {}

  public static void main(String[] args) {
    String host = "127.0.0.1";
    int port = 9000;
    String zooKeeper = null;
    String dns = null;
    String kubernetes = null;
    String namespace = null;
    String portName = "rpcx";
    long runFor = -1;
    int expectedServers = 1;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--host") && i + 1 < args.length) {
        host = args[++i];
      } else if (args[i].equals("--port") && i + 1 < args.length) {
        port = Integer.parseInt(args[++i]);
      } else if (args[i].equals("--zookeeper") && i + 1 < args.length) {
        zooKeeper = args[++i];
      } else if (args[i].equals("--expect-servers") && i + 1 < args.length) {
        expectedServers = Integer.parseInt(args[++i]);
      } else if (args[i].equals("--dns") && i + 1 < args.length) {
        dns = args[++i];
      } else if (args[i].equals("--kubernetes") && i + 1 < args.length) {
        kubernetes = args[++i];
      } else if (args[i].equals("--namespace") && i + 1 < args.length) {
        namespace = args[++i];
      } else if (args[i].equals("--port-name") && i + 1 < args.length) {
        portName = args[++i];
      } else if (args[i].equals("--run-for") && i + 1 < args.length) {
        runFor = Long.parseLong(args[++i]);
      } else {
        System.err.println(
            "usage: java -jar rpcx-example-client.jar [--host H] [--port N]\n"
                + "       java -jar rpcx-example-client.jar --zookeeper HOST:PORT[,...]"
                + " [--expect-servers N]\n"
                + "       java -jar rpcx-example-client.jar --dns dns:///NAME:PORT [--run-for SECONDS]\n"
                + "       java -jar rpcx-example-client.jar --kubernetes SERVICE [--namespace NS]"
                + " [--port-name NAME] [--run-for SECONDS]");
        System.exit(2);
      }
    }
    int failures;
    if (dns != null) {
      try (DnsDiscovery discovery = DnsDiscovery.of(dns)) {
        failures = callThrough(discovery, runFor, expectedServers);
      }
    } else if (kubernetes != null) {
      KubernetesDiscovery.Builder builder =
          KubernetesDiscovery.builder().everyService(kubernetes).portName(portName);
      if (namespace != null) {
        builder.namespace(namespace);
      }
      try (KubernetesDiscovery discovery = builder.build()) {
        failures = callThrough(discovery, runFor, expectedServers);
      }
    } else if (zooKeeper == null) {
      try (RpcxClient client =
          RpcxClient.builder().target(host, port).scan("io.rpcx.examples.api").build()) {
        failures = new ExampleClient().run(client);
      }
    } else {
      try (ZooKeeperRegistry registry = ZooKeeperRegistry.builder().connectString(zooKeeper).build();
          RpcxClient client =
              RpcxClient.builder().discovery(registry).scan("io.rpcx.examples.api").build()) {
        failures = new ExampleClient().runOnCluster(client, expectedServers);
      }
    }
    System.out.println(failures == 0 ? "All calls succeeded." : failures + " call(s) failed.");
    System.exit(failures == 0 ? 0 : 1);
  }

  /**
   * Calls the servers {@code discovery} lists: for {@code runFor} seconds if it is not negative,
   * else as {@link #runOnCluster}. Returns the number of failures.
   */
  private static int callThrough(ServiceDiscovery discovery, long runFor, int expectedServers) {
    try (RpcxClient client =
        RpcxClient.builder().discovery(discovery).scan("io.rpcx.examples.api").build()) {
      ExampleClient run = new ExampleClient();
      return runFor >= 0 ? run.callFor(client, runFor) : run.runOnCluster(client, expectedServers);
    }
  }

  /**
   * Makes the calls that do not depend on one server's memory, several times, over the servers
   * found by discovery; checks that each server took calls. Returns the number of failures.
   */
  public int runOnCluster(RpcxClient client, int expectedServers) {
    EchoService echo = client.create(EchoService.class);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (client.endpoints(EchoService.class).size() < expectedServers
        && System.nanoTime() < deadline) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    }
    System.out.println("Servers of 'echo' found: " + client.endpoints(EchoService.class));
    OrderService orders = client.create(OrderService.class);
    InfoService infos = client.create(InfoService.class);
    for (int i = 1; i <= 3; i++) {
      int round = i;
      String text = "hello #" + round;
      check("echo.echo(\"" + text + "\")", () -> echo.echo(text), text::equals);
      OrderInfo order = Samples.order(round);
      check("orders.loadOrder(" + order.getBillNumber() + ")", () -> orders.loadOrder(order),
          order::equals);
      check("infos.request(" + round + ", true)", () -> infos.request(round, true).getPhoto().length,
          length -> length == 1024 * 1024);
    }
    for (int i = 0; i < 30; i++) {
      int index = i;
      check("echo.echo(\"call " + i + "\")", () -> echo.echo("call " + index),
          ("call " + index)::equals);
    }
    System.out.println("Calls each server took (all services):");
    for (EndpointStatus server : client.endpoints(EchoService.class)) {
      System.out.printf("  %-22s %3d calls, %s%n", server.address(), server.callsStarted(),
          server.state());
    }
    long serversUsed =
        client.endpoints(EchoService.class).stream().filter(s -> s.callsStarted() > 0).count();
    if (serversUsed < expectedServers) {
      System.out.println("FAIL only " + serversUsed + " of " + expectedServers + " servers took calls");
      failures++;
    }
    System.out.println("(messages.* skipped: each example server keeps its messages in its own memory)");
    return failures;
  }

  /**
   * Calls echo from 4 threads for {@code seconds} (0: until the JVM stops), printing every second
   * the calls each server took in that second and the failures so far. Returns the failures.
   */
  public int callFor(RpcxClient client, long seconds) {
    EchoService echo = client.create(EchoService.class);
    java.util.concurrent.atomic.AtomicBoolean calling = new java.util.concurrent.atomic.AtomicBoolean(true);
    java.util.concurrent.atomic.LongAdder failed = new java.util.concurrent.atomic.LongAdder();
    java.util.concurrent.atomic.LongAdder made = new java.util.concurrent.atomic.LongAdder();
    List<Thread> callers = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Thread caller =
          new Thread(
              () -> {
                while (calling.get()) {
                  try {
                    if (!"spread".equals(echo.echo("spread"))) {
                      failed.increment();
                    }
                    made.increment();
                  } catch (RuntimeException e) {
                    failed.increment();
                    if (failed.sum() <= 5) {
                      System.out.println("FAIL echo.echo: " + e);
                    }
                  }
                }
              },
              "example-caller-" + i);
      callers.add(caller);
      caller.start();
    }
    java.util.Map<String, Long> before = new java.util.TreeMap<>();
    long end = seconds == 0 ? Long.MAX_VALUE : System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    for (int second = 1; System.nanoTime() - end < 0; second++) {
      LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
      java.util.Map<String, Long> now = new java.util.TreeMap<>();
      for (EndpointStatus server : client.endpoints(EchoService.class)) {
        now.put(server.address(), server.callsStarted());
      }
      StringBuilder line = new StringBuilder(String.format("t=%3d s  calls by server:", second));
      for (java.util.Map.Entry<String, Long> server : now.entrySet()) {
        line.append(String.format(" %s=%d", server.getKey(),
            server.getValue() - before.getOrDefault(server.getKey(), 0L)));
      }
      System.out.println(line.append("  failed so far: ").append(failed.sum()));
      before = now;
    }
    calling.set(false);
    for (Thread caller : callers) {
      try {
        caller.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    System.out.println(made.sum() + " calls, " + failed.sum() + " failed");
    failures += (int) Math.min(Integer.MAX_VALUE, failed.sum());
    return failures;
  }

  /** Makes every call; returns the number that failed. */
  public int run(RpcxClient client) {
    EchoService echo = client.create(EchoService.class);
    OrderService orders = client.create(OrderService.class);
    MessageService messages = client.create(MessageService.class);
    InfoService infos = client.create(InfoService.class);
    FileService files = client.create(FileService.class);
    ChatService chat = client.create(ChatService.class);

    check("echo.echo(\"hello, RPCX\")", () -> echo.echo("hello, RPCX"), "hello, RPCX"::equals);
    check("echo.echoAsync(\"later\")", () -> echo.echoAsync("later").get(10, TimeUnit.SECONDS),
        "later"::equals);

    OrderInfo order = Samples.order(1);
    check("orders.sendStr(\"ping\")", () -> orders.sendStr("ping"), "ping"::equals);
    for (int size : new int[] {1024, 100 * 1024, 1024 * 1024}) {
      String text = Samples.text(size);
      check("orders.sendStr(<" + size + " chars>)", () -> orders.sendStr(text).length(),
          length -> length == size);
    }
    check("orders.loadOrder(" + order.getBillNumber() + ")", () -> orders.loadOrder(order),
        order::equals);
    List<OrderInfo> hundred = Samples.orders(100);
    check("orders.loadOrders(<100 orders>)", () -> orders.loadOrders(hundred).size(),
        size -> size == 100);
    check("orders.find(42)", () -> orders.find(42), found -> found.getOrderId() == 1_000_000_042L);
    check("orders.find(-1) throws OrderNotFoundException", () -> {
      try {
        orders.find(-1);
        return "no exception";
      } catch (OrderNotFoundException e) {
        return e.getMessage();
      }
    }, "no order -1"::equals);

    check("orders.streamOrders(1000), 100 requested at a time", () -> streamed(orders, 1000),
        count -> count == 1000);
    check("files.upload(\"example.bin\", <8 chunks of 1 MiB>)",
        () -> files.upload("example.bin", new IteratorPublisher<>(() -> chunks(8))).get(30, TimeUnit.SECONDS),
        receipt -> receipt.bytes() == 8L << 20 && receipt.chunks() == 8
            && receipt.sha256().equals(sha256(chunks(8))));
    List<String> texts = List.of("hello", "anyone here?", "bye");
    check("chat.chat(" + texts + ")", () -> chatted(chat, texts),
        replies -> replies.stream().map(Message::text).toList().equals(texts)
            && replies.get(0).id() < replies.get(1).id() && replies.get(1).id() < replies.get(2).id());

    Message created = check("messages.create(\"first\")", () -> messages.create("first"),
        message -> message.text().equals("first") && message.id() > 0);
    long id = created == null ? -1 : created.id();
    check("messages.update(" + id + ", \"edited\")", () -> messages.update(id, "edited"),
        Boolean.TRUE::equals);
    check("messages.findById(" + id + ")", () -> messages.findById(id),
        found -> found.map(Message::text).equals(Optional.of("edited")));
    check("messages.remove(" + id + ")", () -> messages.remove(id), Boolean.TRUE::equals);
    check("messages.findById(" + id + ") after remove", () -> messages.findById(id),
        Optional::isEmpty);

    check("infos.request(7, false)", () -> infos.request(7, false),
        info -> info.getId() == 7 && info.getPhoto() == null);
    check("infos.request(7, true)", () -> infos.request(7, true).getPhoto().length,
        length -> length == 1024 * 1024);
    return failures;
  }

  /** {@code count} chunks of 1 MiB, each filled with its own index. */
  private static Iterator<byte[]> chunks(int count) {
    return IntStream.range(0, count)
        .mapToObj(index -> { byte[] chunk = new byte[1 << 20]; Arrays.fill(chunk, (byte) index); return chunk; })
        .iterator();
  }

  private static String sha256(Iterator<byte[]> chunks) {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
    chunks.forEachRemaining(digest::update);
    return HexFormat.of().formatHex(digest.digest());
  }

  /** Sends {@code texts} in a chat and collects the replies until the server ends the chat. */
  private static List<Message> chatted(ChatService chat, List<String> texts) throws Exception {
    CompletableFuture<List<Message>> done = new CompletableFuture<>();
    chat.chat(new IteratorPublisher<>(texts::iterator)).subscribe(
        new Flow.Subscriber<Message>() {
          private final List<Message> replies = new ArrayList<>();

          @Override
          public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
          }

          @Override
          public void onNext(Message reply) {
            replies.add(reply);
          }

          @Override
          public void onError(Throwable failure) {
            done.completeExceptionally(failure);
          }

          @Override
          public void onComplete() {
            done.complete(replies);
          }
        });
    return done.get(30, TimeUnit.SECONDS);
  }

  /** Subscribes to a server stream, requesting 100 orders at a time; the number received. */
  private static Integer streamed(OrderService orders, int count) throws Exception {
    CompletableFuture<Integer> done = new CompletableFuture<>();
    orders.streamOrders(count).subscribe(
        new Flow.Subscriber<OrderInfo>() {
          private Flow.Subscription subscription;
          private int received;

          @Override
          public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            subscription.request(100);
          }

          @Override
          public void onNext(OrderInfo order) {
            if (++received % 100 == 0) {
              subscription.request(100);
            }
          }

          @Override
          public void onError(Throwable failure) {
            done.completeExceptionally(failure);
          }

          @Override
          public void onComplete() {
            done.complete(received);
          }
        });
    return done.get(30, TimeUnit.SECONDS);
  }

  private <T> T check(String call, Callable<T> action, java.util.function.Predicate<T> expected) {
    try {
      long start = System.nanoTime();
      T result = action.call();
      long micros = (System.nanoTime() - start) / 1000;
      boolean ok = expected.test(result);
      System.out.printf("%s %s -> %s (%d us)%n", ok ? "OK  " : "FAIL", call, describe(result), micros);
      if (!ok) {
        failures++;
      }
      return result;
    } catch (Exception e) {
      System.out.printf("FAIL %s -> %s%n", call, e);
      failures++;
      return null;
    }
  }

  private static String describe(Object result) {
    if (result instanceof Info) {
      return result.toString();
    }
    String text = Objects.toString(result);
    return text.length() > 120 ? text.substring(0, 120) + "..." : text;
  }
}
