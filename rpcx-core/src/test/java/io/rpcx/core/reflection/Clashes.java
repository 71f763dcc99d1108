package io.rpcx.core.reflection;

import io.rpcx.annotation.RPCXClient;
import java.util.List;

/** A service whose names collide once made protobuf names; its export must still be valid. */
@RPCXClient(name = "clashes")
public interface Clashes {

  /** A class named like the message of {@code list<ItemRecord>}. */
  record ListOfItemRecord(String note) {}

  ListOfItemRecord both(List<Catalog.ItemRecord> items, ListOfItemRecord named);

  /** Two parameters whose argument messages would share a name. */
  String cased(String foo, String Foo);
}
