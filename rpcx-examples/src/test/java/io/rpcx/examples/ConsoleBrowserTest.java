package io.rpcx.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.rpcx.examples.api.OrderInfo;
import io.rpcx.examples.api.Samples;
import io.rpcx.examples.server.ExampleServer;
import io.rpcx.http.JsonMapping;
import io.rpcx.http.RpcxHttp;
import io.rpcx.server.RpcxServer;
import io.rpcx.server.ServerInterceptors;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The service console of the example server ({@code --http}) in a real browser: Debian's Chromium,
 * headless, driven by Selenium through Debian's chromedriver. It lists the services and methods
 * with their types and example arguments, calls {@code orders/findOrder} from its form and shows
 * the order, the status and the time taken, and shows a failed call's status, message and exception
 * class. Nothing is fetched but the server's own files and calls.
 *
 * <p>After the call of {@code findOrder} it writes a screenshot to {@code target/console.png};
 * docs/images/console.png is made the same way:
 *
 * <pre>
 * mvn -B -ntp -pl rpcx-examples -am -Dtest=ConsoleBrowserTest -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Drpcx.console.screenshot=$PWD/docs/images/console.png test
 * </pre>
 *
 * Without the Debian packages {@code chromium} and {@code chromium-driver} it is skipped, saying
 * so; CI installs them ({@code .ci/run}).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserTest {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final Duration WAIT = Duration.ofSeconds(20);

  private static ExampleServer server;
  private static ChromeDriverService driverService;
  private static ChromeDriver browser;

  @BeforeAll
  static void start() {
    assumeTrue(
        Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "the console's browser test needs Chromium and its driver, Debian's packages chromium and"
            + " chromium-driver (apt-get install chromium chromium-driver): "
            + CHROMIUM
            + " or "
            + CHROMEDRIVER
            + " is missing");
    server = ExampleServer.start("--port", "0", "--bind", "127.0.0.1", "--http");
    // The driver and the browser named outright: Selenium Manager, which would look for them on
    // the network, is never asked.
    driverService =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort()
            .build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--window-size=1280,860",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps");
    options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
    browser = new ChromeDriver(driverService, options);
    browser.get("http://127.0.0.1:" + server.server().port() + "/");
    new WebDriverWait(browser, WAIT)
        .until(ExpectedConditions.elementToBeClickable(method("orders/findOrder")));
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.quit();
    }
    if (driverService != null) {
      driverService.stop();
    }
    if (server != null) {
      server.close();
    }
  }

  private static By method(String name) {
    return By.cssSelector("nav button.method[data-method='" + name + "']");
  }

  private static String text(String id) {
    return browser.findElement(By.id(id)).getText();
  }

  private static List<String> attributes(String css, String attribute) {
    return browser.findElements(By.cssSelector(css)).stream()
        .map(element -> element.getDomAttribute(attribute))
        .toList();
  }

  private static List<String> texts(String css) {
    return browser.findElements(By.cssSelector(css)).stream().map(WebElement::getText).toList();
  }

  /** Picks {@code name} in the list of methods. */
  private static void select(String name) {
    browser.findElement(method(name)).click();
    new WebDriverWait(browser, WAIT).until(ExpectedConditions.textToBe(By.id("method-name"), name));
  }

  /** Calls the selected method with {@code arguments} from the form; waits for the outcome. */
  private static void call(String arguments) {
    WebElement form = browser.findElement(By.id("arguments"));
    form.clear();
    form.sendKeys(arguments);
    browser.findElement(By.id("call")).click();
    new WebDriverWait(browser, WAIT).until(ExpectedConditions.elementToBeClickable(By.id("call")));
    new WebDriverWait(browser, WAIT)
        .until(ExpectedConditions.presenceOfElementLocated(By.id("status")));
  }

  private static JsonNode json(String text) {
    return JsonMapping.parse(text, "what the console shows");
  }

  @Test
  @Order(1)
  void itListsEveryServiceAndItsMethods() {
    assertEquals(
        List.of(
            "chat",
            "echo",
            "files",
            "infos",
            "messages",
            "orders",
            "rpcx.reflection.v1.Reflection"),
        texts("nav h2"));
    assertEquals(
        List.of(
            "orders/findOrder",
            "orders/loadOrder",
            "orders/loadOrders",
            "orders/sendStr",
            "orders/streamOrders"),
        attributes("nav button.method[data-method^='orders/']", "data-method"));
    assertEquals(
        List.of("stream"), texts("nav button.method[data-method='orders/streamOrders'] .tag"));
    assertEquals(
        List.of("chat/chat", "files/upload"),
        attributes("nav button.method:disabled", "data-method"),
        "methods with a stream argument are listed, and cannot be called here");
  }

  @Test
  @Order(2)
  void aMethodShowsItsParameterAndResultTypesAndExampleArguments() {
    select("orders/findOrder");
    assertEquals(
        "findOrder(int64 orderId) -> OrderInfo",
        browser.findElement(By.cssSelector("#method .signature")).getText());
    assertEquals(List.of("orderId int64"), texts("#method tbody tr"));
    assertEquals(
        "Returns OrderInfo; declares io.rpcx.examples.api.OrderNotFoundException", text("returns"));
    assertEquals(
        json("[42]"), json(browser.findElement(By.id("arguments")).getDomProperty("value")));

    select("orders/loadOrder");
    assertEquals(List.of("order OrderInfo"), texts("#method tbody tr"));
    JsonNode example = json(browser.findElement(By.id("arguments")).getDomProperty("value"));
    JsonNode order = example.get(0);
    assertEquals("2024-05-01T10:00:00Z", order.get("createdAt").asText());
    assertEquals(
        List.of("name", "quantity", "sku", "unitPrice"),
        order.get("items").get(0).properties().stream().map(Map.Entry::getKey).sorted().toList(),
        "a list of records, with the record's fields");
    assertTrue(order.get("status").isTextual(), "an enum by a constant's name: " + order);
  }

  @Test
  @Order(3)
  void findOrderCalledFromTheFormShowsTheOrderTheStatusAndTheTime() throws IOException {
    select("orders/findOrder");
    call("[42]");
    assertEquals("200 OK", text("status"));
    assertTrue(text("elapsed").matches("\\d+\\.\\d ms"), text("elapsed"));
    JsonNode shown = json(text("reply"));
    OrderInfo expected = Samples.order(42);
    assertEquals(expected.getOrderId(), shown.get("orderId").asLong());
    assertEquals(expected.getBillNumber(), shown.get("billNumber").asText());
    assertEquals(expected.getCustomer(), shown.get("customer").asText());
    assertEquals(expected.getStatus().name(), shown.get("status").asText());
    assertEquals(expected.getCreatedAt().toString(), shown.get("createdAt").asText());
    assertEquals(
        0, expected.getTotalAmount().compareTo(new BigDecimal(shown.get("totalAmount").asText())));
    assertEquals(3, shown.get("items").size());
    assertEquals(
        expected.getItems().get(0).getSku(), shown.get("items").get(0).get("sku").asText());
    screenshot();
  }

  /** Writes the page as it is to target/console.png, and to {@code rpcx.console.screenshot}. */
  private static void screenshot() throws IOException {
    byte[] png = browser.getScreenshotAs(OutputType.BYTES);
    Files.write(Path.of("target", "console.png"), png);
    String wanted = System.getProperty("rpcx.console.screenshot", "");
    if (!wanted.isEmpty()) {
      Files.write(Path.of(wanted), png);
    }
  }

  @Test
  @Order(4)
  void aMethodThatThrowsShowsTheStatusTheMessageAndTheExceptionClass() {
    select("orders/findOrder");
    call("[-1]");
    assertEquals("500 REMOTE_FAILURE", text("status"));
    assertEquals("REMOTE_FAILURE", text("error-status"));
    assertEquals("no order -1", text("error-message"));
    assertEquals("io.rpcx.examples.api.OrderNotFoundException", text("error-class"));
  }

  @Test
  @Order(5)
  void argumentsOfTheWrongTypeShowTheProblem() {
    select("orders/findOrder");
    call("[\"forty-two\"]");
    assertEquals("400 BAD_REQUEST", text("status"));
    assertEquals("argument 'orderId': expected int64, got \"forty-two\"", text("error-message"));
    assertTrue(browser.findElements(By.id("error-class")).isEmpty(), "nothing was thrown");
  }

  @Test
  @Order(6)
  void aServerStreamShowsEachElement() {
    select("orders/streamOrders");
    call("[3]");
    new WebDriverWait(browser, WAIT)
        .until(ExpectedConditions.textToBe(By.id("status"), "200 OK, 3 elements"));
    String reply = text("reply");
    for (int n = 0; n < 3; n++) {
      assertTrue(reply.contains(Samples.order(n).getBillNumber()), reply);
    }
  }

  @Test
  @Order(7)
  void thePageLoggedNoError() {
    List<String> severe =
        browser.manage().logs().get(LogType.BROWSER).getAll().stream()
            .filter(entry -> entry.getLevel().intValue() >= Level.SEVERE.intValue())
            .map(LogEntry::getMessage)
            // the failed calls above, answered 400 and 500 as they should be
            .filter(
                message ->
                    !message.matches(
                        "http://127\\.0\\.0\\.1:\\d+/orders/findOrder - Failed to load resource:"
                            + " the server responded with a status of (400|500) .*"))
            .toList();
    assertEquals(List.of(), severe, "errors in the browser's console: scripts, the policy, ...");
  }

  @Test
  @Order(8)
  void onAServerWithTokensItAsksForOneAndSendsIt() {
    RpcxServer guarded =
        RpcxServer.builder()
            .bindAddress("127.0.0.1")
            .port(0)
            .scan("io.rpcx.examples.server")
            .reflection(true)
            .intercept(ServerInterceptors.bearerToken("s3cret"::equals))
            .http(RpcxHttp.builder().openApi(true).console(true).consolePath("/console/").build())
            .build()
            .start();
    try {
      browser.get("http://127.0.0.1:" + guarded.port() + "/console/");
      new WebDriverWait(browser, WAIT)
          .until(ExpectedConditions.presenceOfElementLocated(By.id("load-error")));
      assertEquals(
          "UNAUTHENTICATED: missing credentials: the call has no 'authorization' metadata",
          text("load-error"));
      assertEquals(List.of(), browser.findElements(By.cssSelector("nav button.method")));
      browser.findElement(By.id("token")).sendKeys("s3cret");
      browser.findElement(By.id("reload")).click();
      new WebDriverWait(browser, WAIT)
          .until(ExpectedConditions.elementToBeClickable(method("orders/findOrder")));
      select("orders/findOrder");
      call("[7]");
      assertEquals("200 OK", text("status"));
      assertEquals(
          Samples.order(7).getBillNumber(), json(text("reply")).get("billNumber").asText());
    } finally {
      guarded.stop(Duration.ofSeconds(5));
    }
  }
}
