package io.rpcx.testsuite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rpcx.annotation.RPCXClient;
import io.rpcx.annotation.RPCXServer;
import io.rpcx.testing.RpcxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Generic value classes whose type arguments the signature binds cross the real stack, as Apache's
 * dubbo-benchmark declares its user service: {@code Page<User> listUser(int page)}.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class GenericValuesTest {

  /** A page of results: a generic class. */
  public static final class Page<T> {
    private int pageNo;
    private int total;
    private List<T> result;

    private Page() {}

    Page(int pageNo, int total, List<T> result) {
      this.pageNo = pageNo;
      this.total = total;
      this.result = result;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Page
          && pageNo == ((Page<?>) other).pageNo
          && total == ((Page<?>) other).total
          && Objects.equals(result, ((Page<?>) other).result);
    }

    @Override
    public int hashCode() {
      return Objects.hash(pageNo, total, result);
    }
  }

  /** A value or an error: a generic record. */
  public record Result<V>(V value, String error) {}

  public record User(long id, String name, String email) {}

  @RPCXClient(name = "users")
  public interface UserService {
    Page<User> listUser(int page);

    Result<List<User>> findByPrefix(String prefix);

    CompletableFuture<Result<Map<String, Page<User>>>> pagesByLetter(int pageSize);

    Page<User> echo(Page<User> page);
  }

  @RPCXServer(name = "users")
  public static final class UserServiceImpl implements UserService {
    static List<User> users(int from, int count) {
      List<User> users = new ArrayList<>();
      for (int i = from; i < from + count; i++) {
        users.add(new User(i, "user" + i, "user" + i + "@example.com"));
      }
      return users;
    }

    @Override
    public Page<User> listUser(int page) {
      return new Page<>(page, 1000, users(page * 15, 15));
    }

    @Override
    public Result<List<User>> findByPrefix(String prefix) {
      return prefix.isEmpty() ? new Result<>(null, "empty prefix") : new Result<>(users(0, 3), null);
    }

    @Override
    public CompletableFuture<Result<Map<String, Page<User>>>> pagesByLetter(int pageSize) {
      return CompletableFuture.completedFuture(
          new Result<>(Map.of("a", new Page<>(0, pageSize, users(0, pageSize))), null));
    }

    @Override
    public Page<User> echo(Page<User> page) {
      return page;
    }
  }

  @RegisterExtension
  static final RpcxExtension rpcx = RpcxExtension.withServices(new UserServiceImpl());

  @Test
  void aPageOfUsersIsListedAsDubbosBenchmarkDeclaresIt() {
    UserService users = rpcx.create(UserService.class);
    assertEquals(new Page<>(2, 1000, UserServiceImpl.users(30, 15)), users.listUser(2));
  }

  @Test
  void genericRecordsAndGenericsNestedInMapsAndFuturesRoundTrip() throws Exception {
    UserService users = rpcx.create(UserService.class);
    assertEquals(new Result<>(UserServiceImpl.users(0, 3), null), users.findByPrefix("u"));
    assertEquals(new Result<>(null, "empty prefix"), users.findByPrefix(""));
    assertEquals(
        new Result<>(Map.of("a", new Page<>(0, 4, UserServiceImpl.users(0, 4))), null),
        users.pagesByLetter(4).get(10, TimeUnit.SECONDS));
  }

  @Test
  void aGenericArgumentTravelsToTheServerToo() {
    Page<User> page = new Page<>(7, 7, UserServiceImpl.users(70, 5));
    assertEquals(page, rpcx.create(UserService.class).echo(page));
  }
}
